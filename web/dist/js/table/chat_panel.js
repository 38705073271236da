// The table's chat beside the board (below it on a phone): the lines so far
// and an input. It only draws and hands what is typed to onSend; the socket
// carries it.

import {t} from '../strings.js';
import {cleanChatInput, MAX_CHAT_CHARS, mergeChat} from './chat_view.js';

/** @typedef {import('./chat_view.js').ChatLine} ChatLine */

export class ChatPanel {
  // colorName(color): what the rule set calls a colour ("Black", "Red").
  /** @param {HTMLElement} container @param {{onSend: (text: string) => boolean, colorName: (c: 'white'|'black') => string}} handlers */
  constructor(container, handlers) {
    this.handlers = handlers;
    /** @type {ChatLine[]} */
    this.lines = [];
    const section = document.createElement('section');
    section.className = 'chat-panel';
    section.setAttribute('aria-label', t('tableScreen.chat'));
    const heading = document.createElement('h3');
    heading.textContent = t('tableScreen.chat');
    this.list = document.createElement('ul');
    this.list.className = 'chat-lines';
    this.list.setAttribute('role', 'log');
    this.list.setAttribute('aria-live', 'polite');
    this.empty = document.createElement('p');
    this.empty.className = 'chat-empty';
    this.empty.textContent = t('tableScreen.chatEmpty');
    this.form = document.createElement('form');
    this.form.className = 'chat-form';
    this.input = document.createElement('input');
    this.input.type = 'text';
    this.input.name = 'chat';
    this.input.maxLength = MAX_CHAT_CHARS;
    this.input.autocomplete = 'off';
    this.input.placeholder = t('tableScreen.chatPlaceholder');
    this.input.setAttribute('aria-label', t('tableScreen.chatInput'));
    this.send = document.createElement('button');
    this.send.type = 'submit';
    this.send.textContent = t('tableScreen.chatSend');
    this.muted = document.createElement('p');
    this.muted.className = 'chat-muted';
    this.muted.textContent = t('tableScreen.chatMuted');
    this.muted.hidden = true;
    this.form.append(this.input, this.send);
    section.append(heading, this.list, this.empty, this.form, this.muted);
    container.append(section);
    this.section = section;
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      const text = cleanChatInput(this.input.value);
      if (text && this.handlers.onSend(text)) this.input.value = '';
    });
  }

  // Spectators at a table that mutes them read but cannot write.
  /** @param {boolean} muted */
  setMuted(muted) {
    this.form.hidden = muted;
    this.muted.hidden = !muted;
  }

  /** @param {any[]} messages ChatMessage JSON */
  add(messages) {
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 24;
    this.lines = mergeChat(this.lines, messages);
    this.list.replaceChildren(...this.lines.map((line) => this.lineNode(line)));
    this.empty.hidden = this.lines.length > 0;
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
  }

  /** @param {ChatLine} line */
  lineNode(line) {
    const item = document.createElement('li');
    item.className = `chat-line ${line.kind}`;
    item.dataset.messageId = line.id;
    const color = line.color ? this.handlers.colorName(line.color) : '';
    if (line.kind === 'system') {
      const key = `tableScreen.chatNotice.${line.notice}`;
      const text = line.notice ? t(key, {color}) : key;
      item.textContent = text !== key ? text : line.text;
      return item;
    }
    const who = document.createElement('span');
    who.className = 'chat-who';
    who.textContent = line.kind === 'spectator' ? `${line.who} (${t('tableScreen.chatSpectator')})` : line.who;
    if (line.color) who.dataset.color = line.color;
    const text = document.createElement('span');
    text.className = 'chat-text';
    text.textContent = line.text;
    item.append(who, text);
    return item;
  }
}
