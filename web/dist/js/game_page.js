// One game on screen: the board, both players' captured counters, the
// status line and the buttons. The server is the authority: the page only
// sends actions and redraws from the snapshots it receives.

import {getGame} from './api.js';
import {Board} from './board.js';
import {boardOptions, federationNamesDiffer, notationLabelKey} from './board_notation.js';
import {parseFen} from './fen.js';
import {GameSocket} from './game_socket.js';
import {t} from './strings.js';

const ONGOING = new Set(['GAME_RESULT_ONGOING', 'GAME_RESULT_UNSPECIFIED', undefined]);

/**
 * @typedef {import('./storage.js').Settings} Settings
 * @typedef {import('./board.js').LegalMove} LegalMove
 */

export class GamePage {
  // root: the #game-view element; variant: an entry of /api/variants;
  // saved: {gameId, seats: {white, black}} (seats may be empty: watching only);
  // settings + saveSettings: the persistent settings.
  /**
   * @param {HTMLElement} root
   * @param {{variant: any, saved: {gameId: string, seats?: Record<string, string>},
   *          settings: Settings, saveSettings: (s: Settings) => void, onNewGame: () => void}} args
   */
  constructor(root, {variant, saved, settings, saveSettings, onNewGame}) {
    this.root = root;
    this.variant = variant;
    this.gameId = saved.gameId;
    this.seats = saved.seats || {};
    this.settings = settings;
    this.saveSettings = saveSettings;
    /** @type {any} */
    this.game = null;
    /** @type {LegalMove[]} */
    this.legalMoves = [];
    this.mustCapture = false;
    /** @type {{turn: string, pieces: Map<number, {color: 'white'|'black', king: boolean}>}|null} */
    this.position = null;
    this.pending = '';
    this.message = '';
    this.connection = 'connecting';
    this.resignArmed = false;
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.disarm = undefined;
    this.lastAutoFlip = false;

    root.hidden = false;
    const $ = (/** @type {string} */ selector) => /** @type {HTMLElement} */ (root.querySelector(selector));
    const $input = (/** @type {string} */ selector) => /** @type {HTMLInputElement} */ (root.querySelector(selector));
    this.els = {
      board: $('#board-wrap'),
      status: $('#status'),
      top: $('#player-top'),
      bottom: $('#player-bottom'),
      watching: $('#watching'),
      actions: $('#player-actions'),
      resign: /** @type {HTMLButtonElement} */ ($('#resign')),
      offer: /** @type {HTMLButtonElement} */ ($('#offer-draw')),
      accept: /** @type {HTMLButtonElement} */ ($('#accept-draw')),
      decline: /** @type {HTMLButtonElement} */ ($('#decline-draw')),
      flip: $('#flip'),
      autoFlip: $input('#auto-flip'),
      autoFlipLabel: /** @type {HTMLElement} */ ($input('#auto-flip').closest('label')),
      showMoves: $input('#show-moves'),
      showNumbers: $input('#show-numbers'),
      coordinates: $input('#show-coordinates'),
      coordinatesLabel: $('#show-coordinates-label'),
      newGame: $('#new-game'),
      variantName: $('#variant-name'),
    };
    this.els.variantName.textContent = variant.name;
    this.board = new Board(this.els.board, {
      onMove: (move) => this.act('move', this.sideToMove(), {move: move.notation}),
      onNotice: (key) => {
        this.message = key ? t(key) : '';
        this.renderStatus();
      },
    });
    this.board.setVariant(variant);
    this.listeners = [];
    this.listen(this.els.resign, () => this.resign());
    this.listen(this.els.offer, () => this.act('offerDraw', this.sideToMove()));
    this.listen(this.els.accept, () => this.act('acceptDraw', this.opponentOfOffer()));
    this.listen(this.els.decline, () => this.act('declineDraw', this.opponentOfOffer()));
    this.listen(this.els.flip, () => {
      this.settings.autoFlip = false;
      this.settings.flipped = !this.isFlipped();
      this.saveSettings(this.settings);
      this.render();
    });
    this.els.autoFlip.checked = Boolean(settings.autoFlip);
    this.listen(this.els.autoFlip, () => {
      this.settings.autoFlip = this.els.autoFlip.checked;
      this.saveSettings(this.settings);
      this.render();
    }, 'change');
    // The board options of seed 001, and the federation's square names
    // (issue 18) where they differ from the numbers, kept with the other settings.
    this.els.coordinatesLabel.hidden = !federationNamesDiffer(variant);
    /** @type {HTMLElement} */ (this.els.coordinatesLabel.querySelector('.label-text')).textContent = t(notationLabelKey(variant));
    const options = /** @type {const} */ ([[this.els.showMoves, 'showMoves'], [this.els.showNumbers, 'showNumbers'], [this.els.coordinates, 'coordinates']]);
    for (const [node, key] of options) {
      this.listen(node, () => {
        this.settings[key] = node.checked;
        this.saveSettings(this.settings);
        this.render();
      }, 'change');
    }
    this.listen(this.els.newGame, () => onNewGame());

    this.socket = new GameSocket(this.gameId, {
      onFrame: (frame) => this.frame(frame),
      onState: (state) => {
        this.connection = state;
        this.render();
      },
      beforeRetry: () => getGame(this.gameId),
    });
  }

  /** @param {EventTarget} node @param {(e: Event) => void} fn */
  listen(node, fn, type = 'click') {
    node.addEventListener(type, fn);
    this.listeners.push(() => node.removeEventListener(type, fn));
  }

  // initial: the answer of GET /api/games/{id}, shown until the socket's first snapshot.
  start(initial) {
    if (initial) {
      this.applySnapshot(initial);
      // The board comes from snapshots: no need to replay the events before this state.
      if (initial.game && initial.game.lastEventId) this.socket.lastEventId = initial.game.lastEventId;
    }
    this.socket.open();
    this.render();
  }

  close() {
    clearTimeout(this.disarm);
    this.socket.close();
    for (const off of this.listeners) off();
    this.root.hidden = true;
  }

  frame(frame) {
    if (frame.type === 'snapshot') {
      this.applySnapshot(frame);
    } else if (frame.type === 'error') {
      if (frame.requestId && frame.requestId === this.pending) this.pending = '';
      const err = frame.error || {};
      const message = t('serverError', {message: err.message || err.code || '?'});
      this.message = message;
      this.board.clearSelection();
      if (err.code === 'ABORTED') {
        // The game moved on without this page seeing it: fetch the current state, keep the message.
        getGame(this.gameId)
          .then((state) => {
            this.applySnapshot(state);
            this.message = message;
            this.render();
          })
          .catch(() => {});
      }
    } else if (frame.type === 'ack') {
      // The snapshot that follows the event carries the new position.
      return;
    } else {
      return;
    }
    this.render();
  }

  applySnapshot(snapshot) {
    const game = snapshot.game;
    if (!game) return;
    if (this.game && BigInt(game.version || 0) < BigInt(this.game.version || 0)) return;
    const moved = !this.game || (this.game.ply || 0) !== (game.ply || 0) || this.game.fen !== game.fen;
    this.game = game;
    this.position = parseFen(game.fen);
    // The board keeps what the player has picked up while the legal moves stay the same.
    if (moved || this.pending) this.message = '';
    this.legalMoves = snapshot.legalMoves || [];
    this.mustCapture = Boolean(snapshot.mustCapture);
    this.pending = '';
    this.resignArmed = false;
  }

  ongoing() {
    return this.game && ONGOING.has(this.game.result);
  }

  sideToMove() {
    const side = this.game && this.game.sideToMove;
    return side === 'COLOR_WHITE' ? 'white' : side === 'COLOR_BLACK' ? 'black' : '';
  }

  opponentOfOffer() {
    const by = this.game && this.game.drawOfferedBy;
    return by === 'COLOR_WHITE' ? 'black' : by === 'COLOR_BLACK' ? 'white' : '';
  }

  canAct() {
    const side = this.sideToMove();
    return Boolean(this.ongoing() && !this.pending && side && this.seats[side]);
  }

  // A page holding no seat of this game only watches it.
  watching() {
    return !Object.values(this.seats).some(Boolean);
  }

  isFlipped() {
    // A spectator's board does not turn each ply: only by hand.
    if (this.settings.autoFlip && !this.watching()) {
      const side = this.sideToMove();
      if (side) this.lastAutoFlip = side === 'black';
      return Boolean(this.lastAutoFlip);
    }
    return Boolean(this.settings.flipped);
  }

  resign() {
    if (!this.resignArmed) {
      this.resignArmed = true;
      clearTimeout(this.disarm);
      this.disarm = setTimeout(() => {
        this.resignArmed = false;
        this.render();
      }, 5000);
      this.render();
      return;
    }
    clearTimeout(this.disarm);
    this.resignArmed = false;
    this.act('resign', this.sideToMove());
  }

  // Sends an action for a seat; expectedPly makes a stale click harmless.
  act(action, side, fields = {}) {
    const token = this.seats[side];
    if (!this.game || !token) return;
    const requestId = this.socket.send(action, {token, expectedPly: this.game.ply || 0, ...fields});
    if (!requestId) {
      this.message = t('reconnecting');
    } else {
      this.pending = requestId;
    }
    this.render();
  }

  statusText() {
    const game = this.game;
    if (!game) return t('loading');
    const names = this.variant.colorNames || {white: 'White', black: 'Black'};
    if (!this.ongoing()) {
      const reason = game.reason ? t(`reason.${game.reason}`) : '';
      const head =
        game.result === 'GAME_RESULT_WHITE_WINS'
          ? t('wins', {color: names.white})
          : game.result === 'GAME_RESULT_BLACK_WINS'
            ? t('wins', {color: names.black})
            : t('draw');
      return reason ? `${head} (${reason})` : head;
    }
    const color = names[this.sideToMove()] || '';
    const offer = this.opponentOfOffer();
    if (offer) return t('drawOffered', {color: names[offer === 'white' ? 'black' : 'white'], other: names[offer]});
    return this.mustCapture ? t('mustCapture', {color}) : t('toMove', {color});
  }

  render() {
    const game = this.game;
    const flipped = this.isFlipped();
    this.board.update({
      pieces: this.position ? this.position.pieces : new Map(),
      legalMoves: this.legalMoves,
      mustCapture: this.mustCapture,
      flipped,
      interactive: this.canAct(),
      lastMove: game && game.lastMove ? game.lastMove : null,
      options: boardOptions(this.settings),
    });

    const names = this.variant.colorNames || {white: 'White', black: 'Black'};
    const bottom = flipped ? 'black' : 'white';
    const top = flipped ? 'white' : 'black';
    this.renderPlayer(this.els.top, top, names[top]);
    this.renderPlayer(this.els.bottom, bottom, names[bottom]);

    this.renderStatus();
    const watching = this.watching();
    this.els.watching.hidden = !watching;
    this.els.actions.hidden = watching;
    this.els.autoFlipLabel.hidden = watching;

    const ongoing = Boolean(this.ongoing());
    const offer = this.opponentOfOffer();
    const idle = !this.pending;
    // Hotseat: the buttons act for the side to move, so they say which side that is.
    const mover = names[this.sideToMove()] || '';
    this.els.resign.textContent = this.resignArmed
      ? t('confirmResign', {color: mover})
      : mover ? t('forSide', {action: t('resign'), color: mover}) : t('resign');
    this.els.offer.textContent = mover ? t('forSide', {action: t('offerDraw'), color: mover}) : t('offerDraw');
    this.els.resign.disabled = !(ongoing && idle && this.seats[this.sideToMove()]);
    this.els.offer.disabled = !(ongoing && idle && !offer && this.seats[this.sideToMove()]);
    this.els.accept.hidden = !(ongoing && offer);
    this.els.decline.hidden = !(ongoing && offer);
    this.els.accept.disabled = this.els.decline.disabled = !(idle && this.seats[offer]);
    this.els.autoFlip.checked = Boolean(this.settings.autoFlip);
    this.els.showMoves.checked = this.settings.showMoves !== false;
    this.els.showNumbers.checked = this.settings.showNumbers !== false;
    this.els.coordinates.checked = this.settings.coordinates !== false;
    // The names are the labels' kind: no labels, nothing to choose.
    this.els.coordinates.disabled = this.settings.showNumbers === false;

    const data = this.root.dataset;
    data.gameId = this.gameId;
    data.variant = this.variant.id;
    data.ply = game ? String(game.ply || 0) : '';
    data.turn = this.sideToMove();
    data.result = game ? game.result || '' : '';
    data.pending = this.pending ? 'true' : 'false';
    data.connection = this.connection;
    data.role = watching ? 'spectator' : 'player';
  }

  renderStatus() {
    let status = this.statusText();
    // A spectator is told so first: "to move" alone reads as an invitation to play.
    if (this.watching() && this.game) status = t('watchingStatus', {status});
    if (this.connection === 'lost') status = `${status} · ${t('reconnecting')}`;
    if (this.message) status = `${status} · ${this.message}`;
    this.els.status.textContent = status;
    this.els.status.classList.toggle('error', this.message !== '');
    this.els.status.classList.toggle('capture', Boolean(this.mustCapture && this.ongoing() && !this.watching()));
  }

  /** @param {HTMLElement} node @param {string} color @param {string} name */
  renderPlayer(node, color, name) {
    const player = this.game ? this.game[color] || {} : {};
    const toMove = this.ongoing() && this.sideToMove() === color;
    node.dataset.color = color;
    node.classList.toggle('to-move', Boolean(toMove));
    node.querySelector('.swatch').className = `swatch ${String(name).toLowerCase()}`;
    node.querySelector('.name').textContent = name;
    const count = /** @type {HTMLElement} */ (node.querySelector('.captured'));
    count.id = `captured-${color}`;
    count.textContent = String(player.piecesCaptured || 0);
    count.title = t('captured');
  }
}
