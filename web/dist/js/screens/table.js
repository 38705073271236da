// The table screen, #/table/<id>: a game at a table over the table's
// WebSocket. The board (board.js) with your pieces at the bottom, both
// players with their presence and the running score, the move timer of the
// side to move, automatic moves shown as such, the actions (draw offer and
// answer, resign with a confirmation, undo against the computer, "play
// again"), the move list and the chat. A spectator sees the same without
// the buttons, and is told it is watching. While a seat is open the table's
// creator may seat the computer in it; a seated player may leave the table
// (during a game, after a confirmation saying what it costs). Everything
// comes from the server's frames; a reload reopens the socket and the
// server resends the table, the game and the score.

import {listVariants} from '../api.js';
import {Board} from '../board.js';
import {boardOptions, federationNamesDiffer, moveInNotation, notationLabelKey} from '../board_notation.js';
import {parseFen} from '../fen.js';
import {fillSeatsWithBots, leaveTable} from '../lobby_api.js';
import {loadSettings, saveSettings} from '../storage.js';
import {t} from '../strings.js';
import {actionsState} from '../table/actions_view.js';
import {ChatPanel} from '../table/chat_panel.js';
import {clockState} from '../table/clock_view.js';
import {automaticPlies, moveRows} from '../table/move_list_view.js';
import {presenceState} from '../table/presence_view.js';
import {formatDelta, ratingChangeOf} from '../table/rating_change.js';
import {rematchState} from '../table/rematch_view.js';
import {formatPoints, seatPoints} from '../table/score.js';
import {frameKind, TableSocket} from '../table/table_socket.js';
import {formatCountdown, ServerClock} from '../table/time.js';

const ONGOING = new Set(['GAME_RESULT_ONGOING', 'GAME_RESULT_UNSPECIFIED', undefined, '']);
const COLOR = {COLOR_WHITE: 'white', COLOR_BLACK: 'black'};
const TICK_MS = 250;

/** @param {string} key @param {Record<string, string|number>} [params] */
const tt = (key, params) => t(`tableScreen.${key}`, params);

/**
 * @param {string} tag @param {string} [className] @param {string} [text]
 * @returns {HTMLElement}
 */
function el(tag, className = '', text = '') {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

/** @param {string} text @param {string} className @returns {HTMLButtonElement} */
function button(text, className = '') {
  const node = /** @type {HTMLButtonElement} */ (el('button', className, text));
  node.type = 'button';
  return node;
}

class TableScreen {
  /** @param {HTMLElement} container @param {string} tableId */
  constructor(container, tableId) {
    this.tableId = tableId;
    this.settings = loadSettings();
    this.clock = new ServerClock();
    /** @type {any} */ this.variant = null;
    /** @type {any} */ this.welcome = null;
    /** @type {any} */ this.view = null;
    /** @type {any} */ this.snapshot = null;
    /** @type {any} */ this.clockView = null;
    /** @type {any} */ this.gameOver = null;
    /** @type {any[]} */ this.events = [];
    /** @type {Record<string, string>} when each colour's seat disconnected (event time) */
    this.disconnectedAt = {};
    this.pending = '';
    this.message = '';
    this.connection = 'connecting';
    this.confirmingResign = false;
    this.confirmingLeave = false;
    /** A REST call of this page (seating the computer, leaving) is on its way. */
    this.calling = false;
    this.built = false;
    /** @type {any[]} chat lines that came before the chat panel was built */
    this.chatBuffer = [];
    this.root = el('section', 'table-screen');
    this.root.dataset.tableId = tableId;
    this.root.dataset.connection = 'connecting';
    this.root.append(el('p', 'table-loading', tt('loading')));
    container.append(this.root);
    this.socket = new TableSocket(tableId, {
      onFrame: (frame) => this.frame(frame),
      onState: (state) => {
        this.connection = state;
        if (this.built) this.render();
        this.root.dataset.connection = state;
      },
    });
    this.ticker = setInterval(() => this.tick(), TICK_MS);
  }

  async start() {
    this.socket.open();
    try {
      this.variants = await listVariants();
    } catch (e) {
      this.root.replaceChildren(el('p', 'error', tt('error', {message: e.message})));
      return;
    }
    // The page is built once the rule sets and the table frame are both here.
    this.ensureBuilt();
    this.render();
  }

  close() {
    clearInterval(this.ticker);
    this.socket.close();
    this.root.remove();
  }

  // --- frames -----------------------------------------------------------

  /** @param {any} frame */
  frame(frame) {
    const kind = frameKind(frame);
    switch (kind) {
      case 'welcome':
        this.welcome = frame.welcome;
        break;
      case 'table':
        this.view = frame.table;
        this.ensureBuilt();
        if (frame.table.event && frame.table.event.gameStarted) this.onGameStarted(frame.table.event.gameStarted);
        break;
      case 'snapshot':
        this.applySnapshot(frame.snapshot);
        break;
      case 'gameEvent':
        this.applyEvent(frame.gameEvent);
        // A move's frame carries the game after it.
        if (frame.snapshotAfter) this.applySnapshot(frame.snapshotAfter);
        break;
      case 'gameOver':
        this.gameOver = frame.gameOver;
        break;
      case 'chatHistory':
        this.addChat(frame.chatHistory.messages || []);
        break;
      case 'chatMessage':
        this.addChat([frame.chatMessage]);
        break;
      case 'ack':
        if (frame.requestId && frame.requestId === this.pending) this.pending = '';
        if (frame.ack.started) this.message = tt('rematchStarted');
        break;
      case 'error':
        this.onError(frame);
        break;
      default:
        return;
    }
    if (this.built) this.render();
  }

  /** @param {any[]} messages */
  addChat(messages) {
    if (this.chat) this.chat.add(messages);
    else this.chatBuffer.push(...messages);
  }

  /** @param {any} snapshot */
  applySnapshot(snapshot) {
    if (snapshot.clock) {
      this.clock.learn(snapshot.clock.serverTime);
      this.clockView = snapshot.clock;
    }
    const game = snapshot.game;
    if (!game) return;
    const old = this.snapshot && this.snapshot.game;
    if (old && old.gameId === game.gameId && BigInt(game.version || 0) < BigInt(old.version || 0)) return;
    if (!old || old.gameId !== game.gameId) {
      this.events = [];
      this.disconnectedAt = {};
      this.gameOver = null;
    }
    const moved = !old || old.ply !== game.ply || old.fen !== game.fen;
    if (moved && !this.automaticJustPlayed) this.message = '';
    this.automaticJustPlayed = false;
    this.snapshot = snapshot;
    this.position = parseFen(game.fen);
    this.pending = '';
  }

  /** @param {any} event */
  applyEvent(event) {
    const current = this.snapshot && this.snapshot.game;
    if (current && event.gameId && event.gameId !== current.gameId) this.events = [];
    this.events.push(event);
    if (event.seatDisconnected) this.disconnectedAt[COLOR[event.seatDisconnected.color]] = event.timestamp;
    if (event.seatConnected) delete this.disconnectedAt[COLOR[event.seatConnected.color]];
    if (event.movePlayed && event.movePlayed.automatic && current && event.ply > (current.ply || 0) - 1) {
      const color = this.colorName(COLOR[event.movePlayed.color]);
      this.message = tt('automaticNotice', {move: moveInNotation(event.movePlayed.notation, this.variant, this.settings), color});
      this.automaticJustPlayed = true;
    }
    if (event.drawDeclined && current && event.ply >= (current.ply || 0)) this.message = tt('drawDeclined');
  }

  /** @param {any} started */
  onGameStarted(started) {
    if (this.snapshot && this.snapshot.game && this.snapshot.game.gameId !== started.gameId) {
      this.message = started.gameNumber > 1 ? tt('rematchStarted') : '';
    }
  }

  /** @param {any} frame */
  onError(frame) {
    if (frame.requestId && frame.requestId === this.pending) this.pending = '';
    const err = frame.error || {};
    // A stale click: the next snapshot shows where the game is.
    if (err.code === 'ABORTED') return;
    this.message = tt('error', {message: err.message || err.code || '?'});
    if (this.board) this.board.clearSelection();
    if (!frame.requestId && err.code === 'NOT_FOUND') {
      this.socket.close();
      this.connection = 'gone';
      this.message = tt('gone');
    }
  }

  // --- who is who -------------------------------------------------------

  watching() {
    return !this.welcome || this.welcome.role !== 'ROLE_PLAYER';
  }

  /** @returns {string[]} */
  myColors() {
    const colors = (this.snapshot && this.snapshot.yourColors) || [];
    return colors.map((c) => COLOR[c]).filter(Boolean);
  }

  // The colour this page acts for: its own, or at hotseat the side to move.
  /** @returns {'white'|'black'|''} */
  actingColor() {
    const mine = /** @type {('white'|'black')[]} */ (this.myColors());
    if (mine.length === 1) return mine[0];
    if (mine.length === 2) return this.sideToMove() || mine[0];
    return '';
  }

  /** @returns {'white'|'black'|''} */
  sideToMove() {
    const game = this.snapshot && this.snapshot.game;
    return (game && COLOR[game.sideToMove]) || '';
  }

  ongoing() {
    const game = this.snapshot && this.snapshot.game;
    return Boolean(game && ONGOING.has(game.result));
  }

  /** @param {'white'|'black'|''} color */
  colorName(color) {
    const names = (this.variant && this.variant.colorNames) || {white: 'White', black: 'Black'};
    const english = names[color] || '';
    const translated = t(`tableScreen.colors.${english}`);
    return translated.startsWith('tableScreen.') ? english : translated;
  }

  vsComputer() {
    const seats = (this.view && this.view.seats) || [];
    return Boolean(this.view && this.view.table && this.view.table.vsComputer) ||
      seats.some((s) => !s.yours && s.occupant && s.occupant.kind === 'SEAT_KIND_BOT');
  }

  // Before the first game no seat has a colour yet: the card at the bottom
  // shows this page's seat (or seat 0), the top one the other seat.
  /** @param {boolean} bottom */
  seatBeforeColors(bottom) {
    const seats = (this.view && this.view.seats) || [];
    if (seats.some((s) => COLOR[s.color])) return null;
    const mine = seats.find((s) => s.yours) || seats.find((s) => Number(s.index || 0) === 0) || null;
    return (bottom ? mine : seats.find((s) => s !== mine)) || null;
  }

  /** @param {string} color */
  seatOf(color) {
    const seats = (this.view && this.view.seats) || [];
    return seats.find((s) => COLOR[s.color] === color) || null;
  }

  // The board's orientation: your colour at the bottom (White is at the bottom unflipped).
  flipped() {
    const mine = this.myColors();
    if (mine.length === 2) return this.sideToMove() === 'black';
    if (mine.length === 1) return mine[0] === 'black';
    const seats = (this.view && this.view.seats) || [];
    const yours = seats.find((s) => s.yours);
    return Boolean(yours && COLOR[yours.color] === 'black');
  }

  // --- actions ----------------------------------------------------------

  /** @param {string} action @param {object} [body] */
  act(action, body = {}) {
    const requestId = this.socket.send(action, body);
    if (!requestId) {
      this.message = tt('connection.lost');
    } else if (action !== 'postChat') {
      this.pending = requestId;
    }
    this.render();
    return requestId;
  }

  ply() {
    const game = this.snapshot && this.snapshot.game;
    return game ? Number(game.ply || 0) : 0;
  }

  // --- building the page ---------------------------------------------------

  ensureBuilt() {
    if (this.built || !this.view || !this.variants) return;
    const table = this.view.table || {};
    this.variant = this.variants.find((v) => v.id === table.variant);
    if (!this.variant) {
      this.root.replaceChildren(el('p', 'error', tt('error', {message: `unknown rule set ${table.variant}`})));
      return;
    }
    this.build();
    this.built = true;
    this.chat.add(this.chatBuffer);
    this.chatBuffer = [];
  }

  build() {
    const root = this.root;
    root.replaceChildren();
    root.dataset.variant = this.variant.id;
    const title = el('h2', 'table-title', tt('heading', {variant: this.variant.name}));
    const back = /** @type {HTMLAnchorElement} */ (el('a', 'table-back', tt('backToLobby')));
    back.href = '#/';
    const head = el('div', 'table-head');
    head.append(title, back);
    this.scoreboard = el('p', 'table-score');
    this.scoreboard.setAttribute('aria-label', tt('score'));
    this.banner = el('p', 'watching table-watching');
    this.banner.setAttribute('role', 'note');
    this.banner.append(el('strong', '', tt('watching')), el('span', '', tt('watchingHelp')));
    this.waiting = el('div', 'table-waiting');
    this.waitingText = el('p', '', tt('waitingOpponent'));
    this.inviteRow = el('div', 'invite-row');
    this.inviteInput = /** @type {HTMLInputElement} */ (el('input', 'invite-link'));
    this.inviteInput.readOnly = true;
    this.inviteInput.setAttribute('aria-label', tt('inviteLink'));
    this.copyButton = button(tt('copyInvite'));
    this.copyButton.addEventListener('click', () => this.copyInvite());
    this.inviteRow.append(this.inviteInput, this.copyButton);
    this.botsRow = el('div', 'bots-row');
    this.botLevel = /** @type {HTMLSelectElement} */ (el('select', 'bot-level'));
    this.botLevel.setAttribute('aria-label', tt('botLevel'));
    for (const level of ['BOT_LEVEL_EASY', 'BOT_LEVEL_MEDIUM', 'BOT_LEVEL_HARD']) {
      const option = /** @type {HTMLOptionElement} */ (el('option', '', tt(`level.${level}`)));
      option.value = level;
      this.botLevel.append(option);
    }
    this.botsButton = button(tt('fillWithBots'));
    this.botsButton.addEventListener('click', () => this.fillWithBots());
    this.botsRow.append(el('span', 'bots-help', tt('fillWithBotsHelp')), this.botLevel, this.botsButton);
    this.waiting.append(this.waitingText, this.inviteRow, this.botsRow);

    const layout = el('div', 'table-layout');
    const main = el('div', 'table-main');
    this.topCard = this.seatCard();
    this.bottomCard = this.seatCard();
    const boardWrap = el('div', 'table-board');
    this.board = new Board(boardWrap, {
      onMove: (move) => this.act('move', {notation: move.notation, expectedPly: this.ply()}),
      onNotice: (key) => {
        this.message = key ? t(key) : '';
        this.renderStatus();
      },
    });
    this.board.setVariant(this.variant);
    this.status = el('p', 'table-status');
    this.status.setAttribute('role', 'status');
    this.status.setAttribute('aria-live', 'polite');

    this.actions = el('div', 'buttons table-actions');
    this.offerButton = button(tt('offerDraw'));
    this.offerButton.addEventListener('click', () => this.act('offerDraw', {expectedPly: this.ply(), color: this.colorEnum()}));
    this.acceptButton = button(tt('acceptDraw'), 'primary');
    this.acceptButton.addEventListener('click', () => this.act('answerDraw', {expectedPly: this.ply(), accept: true, color: this.answerColor()}));
    this.declineButton = button(tt('declineDraw'));
    this.declineButton.addEventListener('click', () => this.act('answerDraw', {expectedPly: this.ply(), accept: false, color: this.answerColor()}));
    this.undoButton = button(tt('undo'));
    this.undoButton.addEventListener('click', () => this.act('undo', {expectedPly: this.ply()}));
    this.resignButton = button(tt('resign'), 'danger');
    this.resignButton.addEventListener('click', () => {
      this.confirmingResign = true;
      this.render();
      this.confirmYes.focus();
    });
    this.confirm = el('div', 'resign-confirm');
    this.confirm.setAttribute('role', 'alertdialog');
    this.confirm.setAttribute('aria-label', tt('confirmResign'));
    this.confirmYes = button(tt('confirmResignYes'), 'danger');
    this.confirmYes.addEventListener('click', () => {
      this.confirmingResign = false;
      this.act('resign', {expectedPly: this.ply(), color: this.colorEnum()});
    });
    this.confirmNo = button(tt('confirmResignNo'));
    this.confirmNo.addEventListener('click', () => {
      this.confirmingResign = false;
      this.render();
    });
    this.confirm.append(el('span', '', tt('confirmResign')), this.confirmYes, this.confirmNo);
    this.actions.append(this.acceptButton, this.declineButton, this.offerButton, this.undoButton, this.resignButton);

    this.rematch = el('div', 'rematch-panel');
    this.rematchText = el('span', 'rematch-text');
    this.rematchButton = button(tt('rematch'), 'primary');
    this.rematchButton.addEventListener('click', () => this.act('voteRematch', {}));
    this.rematch.append(this.rematchButton, this.rematchText);

    this.leaveButton = button(tt('leave'), 'leave');
    this.leaveButton.title = tt('leaveHelp');
    this.leaveButton.addEventListener('click', () => {
      // Nothing at stake before or after a game: leave at once.
      if (!this.ongoing()) {
        this.leave();
        return;
      }
      this.confirmingLeave = true;
      this.render();
      this.leaveYes.focus();
    });
    this.leaveConfirm = el('div', 'leave-confirm resign-confirm');
    this.leaveConfirm.setAttribute('role', 'alertdialog');
    this.leaveText = el('span', 'leave-text');
    this.leaveYes = button(tt('confirmLeaveYes'), 'danger');
    this.leaveYes.addEventListener('click', () => {
      this.confirmingLeave = false;
      this.leave();
    });
    this.leaveNo = button(tt('confirmLeaveNo'));
    this.leaveNo.addEventListener('click', () => {
      this.confirmingLeave = false;
      this.render();
    });
    this.leaveConfirm.append(this.leaveText, this.leaveYes, this.leaveNo);
    this.leaveRow = el('div', 'table-leave');
    this.leaveRow.append(this.leaveButton);

    const options = el('fieldset', 'options');
    options.append(el('legend', '', t('boardOptions')));
    // The federation's square names (issue 18) only where they differ from the numbers.
    const labels = /** @type {const} */ ([['showMoves', 'showMoves'], ['showNumbers', 'showNumbers'], ['coordinates', notationLabelKey(this.variant)]]);
    /** @type {Record<string, HTMLInputElement>} */
    this.optionBoxes = {};
    for (const [key, label] of labels) {
      const wrap = el('label', 'check');
      if (key === 'coordinates') wrap.hidden = !federationNamesDiffer(this.variant);
      const box = /** @type {HTMLInputElement} */ (el('input'));
      box.type = 'checkbox';
      box.name = key;
      box.checked = this.settings[key] !== false;
      this.optionBoxes[key] = box;
      box.addEventListener('change', () => {
        this.settings[key] = box.checked;
        saveSettings(this.settings);
        this.render();
      });
      wrap.append(box, el('span', '', t(label)));
      options.append(wrap);
    }

    main.append(this.topCard.node, boardWrap, this.bottomCard.node, this.status, this.actions, this.confirm, this.rematch, this.leaveRow, this.leaveConfirm, options);

    const side = el('aside', 'table-side');
    const movesSection = el('section', 'move-list');
    movesSection.setAttribute('aria-label', tt('moves'));
    movesSection.append(el('h3', '', tt('moves')));
    this.moveList = el('ol', 'moves');
    this.noMoves = el('p', 'no-moves', tt('noMoves'));
    movesSection.append(this.moveList, this.noMoves);
    side.append(movesSection);
    this.chat = new ChatPanel(side, {
      onSend: (text) => Boolean(this.act('postChat', {text})),
      colorName: (color) => this.colorName(color),
    });
    layout.append(main, side);
    root.append(head, this.scoreboard, this.banner, this.waiting, layout);
  }

  seatCard() {
    const node = el('div', 'seat-card player');
    const swatch = el('span', 'swatch');
    const who = el('div', 'seat-who');
    const name = el('span', 'name');
    const presence = el('span', 'presence');
    const rating = el('span', 'rating-change');
    rating.hidden = true;
    who.append(name, presence, rating);
    const timer = el('span', 'move-timer');
    timer.setAttribute('role', 'timer');
    timer.setAttribute('aria-label', tt('timer'));
    const timeouts = el('span', 'timeouts');
    const captured = el('span', 'captured');
    captured.title = t('captured');
    node.append(swatch, who, timeouts, timer, captured);
    return {node, swatch, name, presence, rating, timer, timeouts, captured};
  }

  colorEnum() {
    const color = this.actingColor();
    return color === 'white' ? 'COLOR_WHITE' : color === 'black' ? 'COLOR_BLACK' : 'COLOR_UNSPECIFIED';
  }

  // Hotseat: the side that did not offer answers; otherwise the server knows the seat.
  answerColor() {
    const game = this.snapshot && this.snapshot.game;
    const by = game && game.drawOfferedBy;
    if (this.myColors().length !== 2) return 'COLOR_UNSPECIFIED';
    return by === 'COLOR_WHITE' ? 'COLOR_BLACK' : by === 'COLOR_BLACK' ? 'COLOR_WHITE' : 'COLOR_UNSPECIFIED';
  }

  // The creator seats the computer in the open seat; the table's frames then
  // show it seated, and the page starts the game once the table is full.
  async fillWithBots() {
    this.calling = true;
    this.render();
    try {
      await fillSeatsWithBots(this.tableId, this.botLevel.value);
    } catch (e) {
      this.message = tt('error', {message: e.message});
    }
    this.calling = false;
    this.render();
  }

  // Gives up this page's seat (during a game the server scores it as the
  // gateway's docs say: lost, or the computer plays on) and goes back to the lobby.
  async leave() {
    this.calling = true;
    this.render();
    try {
      await leaveTable(this.tableId);
    } catch (e) {
      this.calling = false;
      this.message = tt('error', {message: e.message});
      this.render();
      return;
    }
    location.hash = '#/';
  }

  // The creator's own table, not full, no game on: the computer may sit down.
  canFillWithBots() {
    const table = (this.view && this.view.table) || {};
    const seats = (this.view && this.view.seats) || [];
    const me = this.welcome && this.welcome.playerId;
    return Boolean(
      !this.watching() && me && table.creatorPlayerId === me && !table.rated && !table.vsComputer && !table.hotseat &&
        table.status === 'TABLE_STATUS_WAITING' && seats.some((seat) => !(seat.occupant && seat.occupant.kind)),
    );
  }

  async copyInvite() {
    const link = this.inviteInput.value;
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      this.inviteInput.select();
      document.execCommand('copy');
    }
    this.copyButton.textContent = tt('copied');
    setTimeout(() => {
      if (this.copyButton) this.copyButton.textContent = tt('copyInvite');
    }, 2000);
  }

  // --- drawing -----------------------------------------------------------

  tick() {
    if (!this.built) return;
    this.renderSeats();
    this.renderRematch();
  }

  render() {
    if (!this.built) return;
    const table = (this.view && this.view.table) || {};
    const game = this.snapshot && this.snapshot.game;
    const watching = this.watching();
    const flipped = this.flipped();
    const interactive = Boolean(
      !watching && this.ongoing() && !this.pending && this.snapshot && (this.snapshot.legalMoves || []).length > 0,
    );
    this.board.update({
      pieces: this.position ? this.position.pieces : new Map(),
      legalMoves: interactive ? this.snapshot.legalMoves : [],
      mustCapture: Boolean(this.snapshot && this.snapshot.mustCapture),
      flipped,
      interactive,
      lastMove: game && game.lastMove ? game.lastMove : null,
      options: boardOptions(this.settings),
    });
    this.optionBoxes.coordinates.disabled = this.settings.showNumbers === false;

    this.banner.hidden = !watching;
    const waiting = !game && (table.status === 'TABLE_STATUS_WAITING' || table.status === 'TABLE_STATUS_READY');
    this.waiting.hidden = !waiting;
    const invite = this.welcome && this.welcome.invitePath;
    this.inviteRow.hidden = !invite || watching;
    if (invite) this.inviteInput.value = new URL(invite, location.href).href;
    this.botsRow.hidden = !this.canFillWithBots();
    this.botsButton.disabled = this.botLevel.disabled = this.calling;
    if (table.status === 'TABLE_STATUS_READY' && !watching && !this.startSent) {
      this.startSent = true;
      this.act('startGame', {});
    }

    this.renderSeats();
    this.renderScore();
    this.renderStatus();
    this.renderActions();
    this.renderLeave();
    this.renderRematch();
    this.renderMoves();

    if (this.chat) this.chat.setMuted(Boolean(this.welcome && this.welcome.chatMuted));
    const data = this.root.dataset;
    data.role = watching ? 'spectator' : 'player';
    data.status = table.status || '';
    data.gameId = game ? game.gameId : '';
    data.ply = game ? String(game.ply || 0) : '';
    data.turn = this.sideToMove();
    data.result = game ? game.result || '' : '';
    data.reason = game ? game.reason || '' : '';
    data.myColor = this.myColors().join(' ');
    data.pending = this.pending ? 'true' : 'false';
    data.connection = this.connection;
    data.gamesFinished = String((this.view && this.view.score && this.view.score.gamesFinished) || 0);
  }

  renderSeats() {
    const flipped = this.flipped();
    const nowMs = this.clock.now();
    const game = this.snapshot && this.snapshot.game;
    // A timer of the previous game (a rematch just started) is not this game's.
    const clockView = this.clockView && game && (!this.clockView.gameId || this.clockView.gameId === game.gameId) ? this.clockView : null;
    const timer = clockState(clockView, this.ply(), nowMs);
    for (const [card, color] of /** @type {const} */ ([[this.topCard, flipped ? 'white' : 'black'], [this.bottomCard, flipped ? 'black' : 'white']])) {
      const unassigned = this.seatBeforeColors(card === this.bottomCard);
      const seat = unassigned || this.seatOf(color);
      const occupant = (seat && seat.occupant) || {};
      const player = game ? game[color] || {} : {};
      card.node.dataset.color = color;
      card.node.dataset.seat = seat ? String(seat.index) : '';
      card.node.classList.toggle('to-move', this.ongoing() && this.sideToMove() === color);
      card.swatch.className = `swatch ${String((this.variant.colorNames || {})[color] || color).toLowerCase()}`;
      card.swatch.hidden = Boolean(unassigned);
      // A player who left mid-game is still the game's player.
      const left = seat && seat.computerPlaying && player.seat ? player.seat.displayName : '';
      let name = occupant.displayName || left || (unassigned ? tt('openSeat') : this.colorName(color));
      if (occupant.kind === 'SEAT_KIND_BOT') name = tt('computer', {level: tt(`level.${occupant.botLevel || 'BOT_LEVEL_UNSPECIFIED'}`)});
      if (seat && seat.yours) name = `${name} ${tt('you')}`;
      card.name.textContent = name;
      const presence = presenceState(seat, this.disconnectedAt[color], nowMs);
      card.node.dataset.presence = presence.state;
      let presenceText = tt(`presence.${presence.state}`);
      if (presence.state === 'disconnected') {
        const away = formatCountdown(presence.awayMs);
        const since = Boolean(this.disconnectedAt[color]);
        if (presence.abandonText) {
          presenceText = since
            ? tt('presence.disconnectedLeft', {away, left: presence.abandonText})
            : tt('presence.disconnectedLoses', {left: presence.abandonText});
        } else if (since) {
          presenceText = tt('presence.disconnected', {away});
        } else {
          presenceText = tt('presence.away');
        }
      }
      // Presence is a game's: before the first one a person is just seated.
      if (!game && presence.state === 'disconnected') {
        card.node.dataset.presence = 'seated';
        presenceText = tt('presence.seated');
      }
      // Colours are drawn when the game starts: none to name before.
      card.presence.textContent = unassigned ? presenceText : `${this.colorName(color)} · ${presenceText}`;
      const change = ratingChangeOf(this.gameOver, game ? game.gameId : '', color);
      card.rating.hidden = !change;
      card.rating.textContent = change ? tt('ratingChange', {delta: formatDelta(change.delta), elo: change.after}) : '';
      card.rating.title = change ? tt('ratingChangeTitle', {before: change.before, after: change.after}) : '';
      card.rating.classList.toggle('up', Boolean(change && change.delta > 0));
      card.rating.classList.toggle('down', Boolean(change && change.delta < 0));
      const inRow = clockView ? Number(clockView[`${color}Timeouts`] || 0) : Number(player.consecutiveAutomaticMoves || 0);
      card.node.dataset.timeouts = String(inRow);
      card.timeouts.hidden = !(inRow > 0 && this.ongoing());
      card.timeouts.textContent = tt('timeoutsBadge', {n: inRow});
      card.timeouts.title = tt('automaticInRow', {color: this.colorName(color), n: inRow});
      const mine = timer.running && timer.color === color && this.ongoing();
      card.timer.hidden = !mine;
      card.timer.textContent = mine ? timer.text : '';
      card.timer.classList.toggle('warning', mine && timer.warning);
      card.timer.setAttribute('aria-label', mine ? tt('timerFor', {color: this.colorName(color), time: timer.text}) : tt('timer'));
      card.captured.textContent = String(player.piecesCaptured || 0);
    }
  }

  // "Game 2 · Score: Guest-1234 1 – 0 Anna_B", by seat (colours swap, seats do not).
  renderScore() {
    const view = this.view || {};
    const table = view.table || {};
    const seats = view.seats || [];
    const points = seatPoints(view.score);
    const nameOf = (/** @type {number} */ index) => {
      const seat = seats.find((s) => Number(s.index) === index);
      const occupant = (seat && seat.occupant) || {};
      if (occupant.kind === 'SEAT_KIND_BOT') return tt('computer', {level: tt(`level.${occupant.botLevel || 'BOT_LEVEL_UNSPECIFIED'}`)});
      return occupant.displayName || '…';
    };
    const games = Number(table.gamesPlayed || 0);
    const parts = [];
    if (games > 0) parts.push(tt('gameNumber', {n: games}));
    parts.push(`${tt('score')}: ${nameOf(0)} ${tt('scoreLine', {a: formatPoints(points[0]), b: formatPoints(points[1])})} ${nameOf(1)}`);
    this.scoreboard.textContent = parts.join(' · ');
    this.scoreboard.dataset.score = `${points[0]}-${points[1]}`;
    this.scoreboard.hidden = seats.filter((s) => s.occupant && s.occupant.kind).length < 2;
  }

  statusText() {
    const game = this.snapshot && this.snapshot.game;
    const table = (this.view && this.view.table) || {};
    if (!game) return table.status === 'TABLE_STATUS_WAITING' ? tt('waitingOpponent') : t('loading');
    const mine = this.myColors();
    if (!this.ongoing()) {
      const reason = game.reason ? t(`reason.${game.reason}`) : '';
      const winner = game.result === 'GAME_RESULT_WHITE_WINS' ? 'white' : game.result === 'GAME_RESULT_BLACK_WINS' ? 'black' : '';
      let head = winner ? t('wins', {color: this.colorName(winner)}) : t('draw');
      if (winner && mine.length === 1) head = `${mine[0] === winner ? tt('youWon') : tt('youLost')} · ${head}`;
      return reason ? `${head} (${reason})` : head;
    }
    const side = this.sideToMove();
    const capture = Boolean(this.snapshot.mustCapture);
    const offer = COLOR[game.drawOfferedBy];
    if (offer && mine.length > 0) {
      if (mine.includes(offer) && mine.length === 1) return tt('drawOfferedByYou');
      return tt('drawOfferedToYou', {color: this.colorName(offer)});
    }
    if (mine.includes(side) && mine.length === 1) return capture ? tt('yourTurnCapture') : tt('yourTurn');
    const seat = this.seatOf(side);
    if (seat && seat.occupant && seat.occupant.kind === 'SEAT_KIND_BOT') return tt('computerThinking');
    const color = this.colorName(side);
    return capture ? tt('theirTurnCapture', {color}) : tt('theirTurn', {color});
  }

  renderStatus() {
    if (!this.status) return;
    let status = this.statusText();
    if (this.watching() && this.snapshot) status = tt('watchingStatus', {status});
    const connection = this.connection === 'open' ? '' : tt(`connection.${this.connection === 'gone' ? 'lost' : this.connection}`);
    if (connection) status = `${status} · ${connection}`;
    if (this.message) status = `${status} · ${this.message}`;
    this.status.textContent = status;
    this.status.classList.toggle('error', this.message.startsWith(tt('error', {message: ''}).trim()));
    const mine = this.myColors();
    this.status.classList.toggle('capture', Boolean(this.snapshot && this.snapshot.mustCapture && this.ongoing() && mine.includes(this.sideToMove())));
  }

  renderActions() {
    const game = this.snapshot && this.snapshot.game;
    const watching = this.watching();
    const state = actionsState(game, watching ? '' : this.actingColor(), {vsComputer: this.vsComputer(), busy: Boolean(this.pending)});
    // A spectator gets no buttons at all, not greyed ones.
    this.actions.hidden = watching || !this.ongoing();
    this.offerButton.hidden = this.vsComputer();
    this.offerButton.disabled = !state.offerDraw;
    this.offerButton.textContent = state.drawPendingFromMe ? tt('drawOfferedByYou') : tt('offerDraw');
    this.acceptButton.hidden = this.declineButton.hidden = !(state.acceptDraw || (this.pending && game && COLOR[game.drawOfferedBy] && !state.drawPendingFromMe));
    this.acceptButton.disabled = !state.acceptDraw;
    this.declineButton.disabled = !state.declineDraw;
    this.undoButton.hidden = !this.vsComputer();
    this.undoButton.disabled = !state.undo;
    this.resignButton.disabled = !state.resign;
    if (!state.resign) this.confirmingResign = false;
    this.confirm.hidden = !this.confirmingResign || watching;
    this.resignButton.hidden = this.confirmingResign;
  }

  renderLeave() {
    const seated = !this.watching();
    this.leaveRow.hidden = !seated || this.confirmingLeave;
    this.leaveButton.disabled = this.calling;
    if (!seated || !this.ongoing()) this.confirmingLeave = false;
    this.leaveConfirm.hidden = !this.confirmingLeave;
    const table = (this.view && this.view.table) || {};
    const computerStandsIn = Boolean(table.options && table.options.computerPlaysForAbsent) && !this.vsComputer();
    const text = computerStandsIn ? tt('confirmLeaveComputer') : tt('confirmLeaveLoses');
    this.leaveText.textContent = text;
    this.leaveConfirm.setAttribute('aria-label', text);
    this.leaveYes.disabled = this.calling;
  }

  renderRematch() {
    const view = this.view || {};
    const state = rematchState(view.table, view.seats, this.clock.now());
    const finished = view.table && view.table.status === 'TABLE_STATUS_FINISHED';
    this.rematch.hidden = !finished || (this.watching() && !state.open);
    this.rematchButton.hidden = this.watching() || state.myVote || state.expired;
    this.rematchButton.disabled = !state.canVote || Boolean(this.pending);
    let text = '';
    if (state.expired) text = tt('rematchClosed');
    else if (state.myVote) text = `${tt('rematchVoted')} · ${state.text}`;
    else if (state.otherVote) text = `${tt('rematchTheyVoted')} · ${tt('rematchLeft', {time: state.text})}`;
    else if (state.open) text = tt('rematchLeft', {time: state.text});
    this.rematchText.textContent = text;
    this.rematch.dataset.open = state.open ? 'true' : 'false';
  }

  renderMoves() {
    const game = this.snapshot && this.snapshot.game;
    const moves = (game && game.moves) || [];
    const first = String((game && game.initialFen) || 'W').trim().toUpperCase().startsWith('B') ? 'black' : 'white';
    const rows = moveRows(moves.map((m) => moveInNotation(m, this.variant, this.settings)), first, automaticPlies(this.events));
    const cells = rows.flatMap((r) => [r.first, r.second]).filter((c) => c !== null);
    const key = `${game ? game.gameId : ''}|${cells.map((c) => c.notation).join(' ')}|${cells.filter((c) => c.automatic).map((c) => c.ply).join(',')}`;
    this.noMoves.hidden = moves.length > 0;
    if (key === this.movesKey) return;
    this.movesKey = key;
    this.moveList.replaceChildren(
      ...rows.map((row) => {
        const item = el('li', 'move-row');
        item.append(el('span', 'move-number', `${row.number}.`));
        for (const cell of [row.first, row.second]) {
          const node = el('span', 'move');
          if (cell) {
            node.textContent = cell.notation;
            node.dataset.ply = String(cell.ply);
            node.dataset.color = cell.color;
            if (cell.automatic) {
              node.classList.add('automatic');
              node.dataset.automatic = 'true';
              node.title = tt('automaticMove');
              node.append(el('span', 'auto-tag', tt('automaticShort')));
              node.setAttribute('aria-label', `${cell.notation} ${tt('automaticMove')}`);
            }
          }
          item.append(node);
        }
        return item;
      }),
    );
    this.moveList.scrollTop = this.moveList.scrollHeight;
  }
}

/** @param {HTMLElement} container @param {RegExpExecArray} match */
export function mount(container, match) {
  const screen = new TableScreen(container, decodeURIComponent(match[1]));
  screen.start();
  return {close: () => screen.close()};
}
