// The table's WebSocket (/ws/tables/{id}, docs/WEB_PROTOCOL.md "Table
// WebSocket"): ServerFrames in, ClientFrames out (protobuf JSON of
// proto/draughts/v1/web_socket.proto), a ping to keep it alive, and a
// reconnect that resumes where it was (?game=&after=&chatAfter=).

import {newerId} from '../game_socket.js';

const PING_EVERY_MS = 25000;
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 8000;

/**
 * @typedef {'connecting'|'open'|'lost'|'gone'} SocketState
 * @typedef {{
 *   onFrame: (frame: any) => void,
 *   onState: (state: SocketState) => void,
 * }} TableSocketHandlers
 */

// The query that opens a socket: snapshots inside the events that change
// the game (snapshotAfter), and to resume, the current game and its last
// event, the last chat message. Pure (tested under Node).
/** @param {{gameId: string, lastEventId: string, lastChatId: string}} resume */
export function resumeQuery({gameId, lastEventId, lastChatId}) {
  const params = new URLSearchParams({snapshotAfter: '1'});
  if (gameId && lastEventId) {
    params.set('game', gameId);
    params.set('after', lastEventId);
  }
  if (lastChatId) params.set('chatAfter', lastChatId);
  return `?${params.toString()}`;
}

// The name of the one frame member a ServerFrame carries ("welcome",
// "snapshot", ...), or '' for none; snapshotAfter only rides beside a
// gameEvent. Pure.
/** @param {any} frame */
export function frameKind(frame) {
  if (!frame || typeof frame !== 'object') return '';
  for (const key of Object.keys(frame)) {
    if (key === 'requestId' || key === 'snapshotAfter') continue;
    if (frame[key] && typeof frame[key] === 'object') return key;
  }
  return '';
}

export class TableSocket {
  /** @param {string} tableId @param {TableSocketHandlers} handlers */
  constructor(tableId, handlers) {
    this.tableId = tableId;
    this.handlers = handlers;
    this.gameId = '';
    this.lastEventId = '';
    this.lastChatId = '';
    this.nextRequest = 1;
    this.retryMs = RETRY_MIN_MS;
    this.closed = false;
    /** @type {WebSocket|null} */
    this.ws = null;
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.timer = undefined;
    /** @type {ReturnType<typeof setInterval>|undefined} */
    this.ping = undefined;
  }

  open() {
    if (this.closed) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const query = resumeQuery(this);
    const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${query}`);
    this.ws = ws;
    this.handlers.onState('connecting');
    ws.addEventListener('open', () => {
      this.retryMs = RETRY_MIN_MS;
      this.handlers.onState('open');
      this.ping = setInterval(() => this.sendRaw({ping: {}}), PING_EVERY_MS);
    });
    ws.addEventListener('message', (e) => this.receive(e.data));
    ws.addEventListener('close', () => {
      clearInterval(this.ping);
      if (this.ws !== ws || this.closed) return;
      this.ws = null;
      this.handlers.onState('lost');
      const delay = this.retryMs;
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
      this.timer = setTimeout(() => this.open(), delay);
    });
  }

  /** @param {string} data */
  receive(data) {
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    const kind = frameKind(frame);
    if (kind === 'snapshot' && frame.snapshot.game) {
      const gameId = frame.snapshot.game.gameId || '';
      // A new game (a rematch): its events start afresh.
      if (gameId !== this.gameId) this.lastEventId = '';
      this.gameId = gameId;
    } else if (kind === 'gameEvent') {
      const event = frame.gameEvent;
      if (event.gameId && event.gameId !== this.gameId) {
        this.gameId = event.gameId;
        this.lastEventId = '';
      }
      if (event.eventId && newerId(event.eventId, this.lastEventId)) this.lastEventId = event.eventId;
    } else if (kind === 'chatMessage') {
      const id = frame.chatMessage.messageId;
      if (id && newerId(id, this.lastChatId)) this.lastChatId = id;
    } else if (kind === 'chatHistory') {
      for (const message of frame.chatHistory.messages || []) {
        if (message.messageId && newerId(message.messageId, this.lastChatId)) this.lastChatId = message.messageId;
      }
    }
    this.handlers.onFrame(frame);
  }

  // Sends one action ("move", "resign", "postChat", ...) with its body and
  // returns its requestId, or '' when offline.
  /** @param {string} action @param {object} [body] */
  send(action, body = {}) {
    const requestId = `r${this.nextRequest++}`;
    return this.sendRaw({requestId, [action]: body}) ? requestId : '';
  }

  /** @param {object} message */
  sendRaw(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  // Stops for good (the screen closes, or the table is gone).
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.ping);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }
}
