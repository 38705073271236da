// One game on screen: the board, both players' captured counters, the
// status line and the buttons. The server is the authority: the page only
// sends actions and redraws from the snapshots it receives.

import {getGame} from './api.js';
import {BoardView} from './board_view.js';
import {parseFen} from './fen.js';
import {GameSocket} from './game_socket.js';
import {MovePicker} from './move_picker.js';
import {t} from './strings.js';

const ONGOING = new Set(['GAME_RESULT_ONGOING', 'GAME_RESULT_UNSPECIFIED', undefined]);

export class GamePage {
  // root: the #game-view element; variant: an entry of /api/variants;
  // saved: {gameId, seats: {white, black}} (seats may be empty: watching only);
  // settings + saveSettings: the persistent settings.
  constructor(root, {variant, saved, settings, saveSettings, onNewGame}) {
    this.root = root;
    this.variant = variant;
    this.gameId = saved.gameId;
    this.seats = saved.seats || {};
    this.settings = settings;
    this.saveSettings = saveSettings;
    this.game = null;
    this.picker = new MovePicker();
    this.pending = '';
    this.message = '';
    this.connection = 'connecting';
    this.resignArmed = false;

    root.hidden = false;
    this.els = {
      board: root.querySelector('#board-wrap'),
      status: root.querySelector('#status'),
      top: root.querySelector('#player-top'),
      bottom: root.querySelector('#player-bottom'),
      resign: root.querySelector('#resign'),
      offer: root.querySelector('#offer-draw'),
      accept: root.querySelector('#accept-draw'),
      decline: root.querySelector('#decline-draw'),
      flip: root.querySelector('#flip'),
      autoFlip: root.querySelector('#auto-flip'),
      newGame: root.querySelector('#new-game'),
      variantName: root.querySelector('#variant-name'),
    };
    this.els.variantName.textContent = variant.name;
    this.board = new BoardView(this.els.board, {
      onTap: (square) => this.tap(square),
      onDrop: (from, to) => this.drop(from, to),
      canDrag: (square) => this.canAct() && this.picker.isMovable(square),
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
      this.picker.reset();
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
    if (moved || this.pending) {
      this.picker = new MovePicker(snapshot.legalMoves || [], snapshot.mustCapture);
      this.message = '';
    } else {
      // Same position (a draw offer, presence): keep what the player has picked up.
      const prefix = this.picker.prefix;
      this.picker = new MovePicker(snapshot.legalMoves || [], snapshot.mustCapture);
      if (prefix.length > 0 && this.picker.isMovable(prefix[0])) this.picker.prefix = prefix;
    }
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

  isFlipped() {
    if (this.settings.autoFlip) {
      const side = this.sideToMove();
      if (side) this.lastAutoFlip = side === 'black';
      return Boolean(this.lastAutoFlip);
    }
    return Boolean(this.settings.flipped);
  }

  tap(square) {
    if (!this.canAct()) return;
    this.message = '';
    this.outcome(this.picker.tap(square));
  }

  drop(from, to) {
    if (!this.canAct()) return;
    this.message = '';
    this.outcome(this.picker.drop(from, to));
  }

  outcome(result) {
    if (result.kind === 'play') {
      this.act('move', this.sideToMove(), {move: result.move.notation});
      return;
    }
    if (result.kind === 'step' && this.picker.destination) this.message = t('multiRoute');
    this.render();
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
      this.picker.reset();
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
    this.board.setFlipped(flipped);
    const markers = this.canAct() ? this.picker.markers() : null;
    this.board.render({
      pieces: this.position ? this.position.pieces : new Map(),
      lastMove: game && game.lastMove ? game.lastMove : null,
      markers,
      interactive: this.canAct(),
    });

    const names = this.variant.colorNames || {white: 'White', black: 'Black'};
    const bottom = flipped ? 'black' : 'white';
    const top = flipped ? 'white' : 'black';
    this.renderPlayer(this.els.top, top, names[top]);
    this.renderPlayer(this.els.bottom, bottom, names[bottom]);

    let status = this.statusText();
    if (this.connection === 'lost') status = `${status} · ${t('reconnecting')}`;
    if (this.message) status = `${status} · ${this.message}`;
    this.els.status.textContent = status;
    this.els.status.classList.toggle('error', this.message !== '');
    this.els.status.classList.toggle('capture', Boolean(this.mustCapture && this.ongoing()));

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

    const data = this.root.dataset;
    data.gameId = this.gameId;
    data.variant = this.variant.id;
    data.ply = game ? String(game.ply || 0) : '';
    data.turn = this.sideToMove();
    data.result = game ? game.result || '' : '';
    data.pending = this.pending ? 'true' : 'false';
    data.connection = this.connection;
  }

  renderPlayer(node, color, name) {
    const player = this.game ? this.game[color] || {} : {};
    const toMove = this.ongoing() && this.sideToMove() === color;
    node.dataset.color = color;
    node.classList.toggle('to-move', Boolean(toMove));
    node.querySelector('.swatch').className = `swatch ${String(name).toLowerCase()}`;
    node.querySelector('.name').textContent = name;
    const count = node.querySelector('.captured');
    count.id = `captured-${color}`;
    count.textContent = String(player.piecesCaptured || 0);
    count.title = t('captured');
  }
}
