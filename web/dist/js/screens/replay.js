// #/replay/<gameId>: a finished game from the archive on the board, move by
// move (first / previous / next / last, the move list in the rule set's own
// notation, arrow keys), its result, each player's rating change for a rated
// game, and its PDN to download. #/replay: a PDN file from the device, read
// by the server, one of its games picked and replayed the same way.

import {Board} from '../board.js';
import {parseFen} from '../fen.js';
import {getReplay, h, pdnUrl, replayPdn, seatName, useHistoryStyles, variantsList} from '../history_api.js';
import {t} from '../strings.js';

const MAX_UPLOAD_BYTES = 512 * 1024;

// The board, the controls and the move list of one game.
class ReplayViewer {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.ply = 0;
    /** @type {any} */
    this.replay = null;
    this.boardWrap = h('div', {class: 'replay-board', id: 'replay-board-wrap'});
    this.board = new Board(this.boardWrap, {onMove: () => {}});
    this.label = h('p', {class: 'ply-label', id: 'replay-ply', 'aria-live': 'polite'});
    const button = (id, key, text, step) => h('button', {id, 'aria-label': t(key), title: t(key), text, onclick: () => this.go(step())});
    this.controls = h('div', {class: 'buttons replay-controls'}, [
      button('replay-first', 'history.first', '|◀', () => 0),
      button('replay-previous', 'history.previous', '◀', () => this.ply - 1),
      button('replay-next', 'history.next', '▶', () => this.ply + 1),
      button('replay-last', 'history.last', '▶|', () => this.count()),
    ]);
    this.moves = h('ol', {class: 'move-list', id: 'replay-moves', 'aria-label': t('history.moves')});
    this.element = h('div', {class: 'replay-viewer', hidden: true}, [
      h('div', {class: 'replay-main'}, [this.boardWrap, this.controls, this.label]),
      h('div', {class: 'replay-side'}, [h('h3', {text: t('history.moves')}), this.moves]),
    ]);
    root.append(this.element);
  }

  count() {
    return this.replay ? this.replay.plies.length : 0;
  }

  /** @param {any} replay a draughts.v1.Replay @param {any} variant an entry of /api/variants */
  show(replay, variant) {
    this.replay = {...replay, plies: replay.plies || []};
    this.board.setVariant(variant);
    this.element.hidden = false;
    this.moves.replaceChildren();
    const plies = this.replay.plies;
    /** @type {HTMLButtonElement[]} */
    this.moveButtons = plies.map((ply, i) =>
      h('button', {class: 'move', 'data-ply': i + 1, text: ply.notation, onclick: () => this.go(i + 1)}),
    );
    for (let i = 0; i < plies.length; i += 2) {
      const item = h('li', {}, [h('span', {class: 'move-number', text: `${i / 2 + 1}.`}), this.moveButtons[i]]);
      if (i + 1 < plies.length) item.append(this.moveButtons[i + 1]);
      this.moves.append(item);
    }
    this.go(this.count());
  }

  /** @param {number} ply */
  go(ply) {
    if (!this.replay) return;
    this.ply = Math.max(0, Math.min(this.count(), ply));
    const plies = this.replay.plies;
    const fen = this.ply === 0 ? this.replay.initialFen : plies[this.ply - 1].fen;
    const position = parseFen(fen);
    this.board.update({
      pieces: position.pieces,
      legalMoves: [],
      mustCapture: false,
      flipped: false,
      interactive: false,
      lastMove: this.ply === 0 ? null : {path: plies[this.ply - 1].path || []},
      options: {showMoves: false, showNumbers: true, coordinates: true},
    });
    this.element.dataset.ply = String(this.ply);
    this.element.dataset.fen = fen;
    this.label.textContent =
      this.ply === 0 ? t('history.startPosition') : t('history.plyOf', {ply: this.ply, count: this.count()}) + ` · ${plies[this.ply - 1].notation}`;
    this.moveButtons.forEach((b, i) => {
      if (i + 1 === this.ply) b.setAttribute('aria-current', 'step');
      else b.removeAttribute('aria-current');
    });
  }

  /** @param {KeyboardEvent} event */
  key(event) {
    if (!this.replay || event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    const steps = {ArrowLeft: this.ply - 1, ArrowRight: this.ply + 1, Home: 0, End: this.count()};
    if (!(event.key in steps)) return;
    event.preventDefault();
    this.go(steps[event.key]);
  }
}

/** @param {any} game an ArchivedReplay @param {any} variant */
function archivedHeader(game, variant) {
  const white = seatName(game.white, t);
  const black = seatName(game.black, t);
  const winner = game.result === 'GAME_RESULT_WHITE_WINS' ? white : game.result === 'GAME_RESULT_BLACK_WINS' ? black : '';
  const reason = game.reason && game.reason !== 'RESULT_REASON_UNSPECIFIED' ? ` · ${t(`reason.${game.reason}`)}` : '';
  const result =
    game.result === 'GAME_RESULT_DRAW' ? t('history.resultDraw') : winner ? t('history.resultWinner', {name: winner}) : t('history.resultUnknown');
  /** @type {HTMLElement[]} */
  const lines = [
    h('p', {class: 'players'}, [
      h('span', {class: 'swatch white'}),
      playerLink(game.white),
      ` (${variant.colorNames.white}) – `,
      h('span', {class: 'swatch black'}),
      playerLink(game.black),
      ` (${variant.colorNames.black})`,
    ]),
    h('p', {class: 'result', id: 'replay-result', 'data-result': game.result, text: result + reason}),
  ];
  const changes = game.changes || [];
  if (changes.length > 0) {
    const items = changes.map((c) => {
      const seat = c.color === 'COLOR_WHITE' ? game.white : game.black;
      const delta = c.eloAfter - c.eloBefore;
      return h('li', {'data-player': c.playerId, 'data-delta': delta}, [
        t('history.ratingChange', {name: seatName(seat, t), before: c.eloBefore, after: c.eloAfter, delta: `${delta >= 0 ? '+' : ''}${delta}`}),
      ]);
    });
    lines.push(h('ul', {class: 'rating-changes', id: 'replay-changes'}, items));
  } else {
    lines.push(h('p', {class: 'rating-changes', id: 'replay-changes', text: t('history.notRatedGame')}));
  }
  lines.push(
    h('p', {}, [
      h('a', {class: 'button-link', id: 'download-pdn', href: game.pdnUrl || pdnUrl(game.gameId), download: `draughts-${game.gameId}.pdn`, text: t('history.downloadPdn')}),
    ]),
  );
  return lines;
}

/** @param {any} seat */
function playerLink(seat) {
  const name = seatName(seat, t);
  if (seat && seat.kind === 'SEAT_KIND_PERSON' && seat.playerId) {
    return h('a', {href: `#/player/${encodeURIComponent(seat.playerId)}`, text: name});
  }
  return h('span', {text: name});
}

/** @param {HTMLElement} container @param {RegExpExecArray} match */
export async function mount(container, match) {
  useHistoryStyles();
  const gameId = match[1] || '';
  const heading = h('h2', {text: t('history.replayTitle')});
  const info = h('div', {class: 'replay-info'});
  const status = h('p', {class: 'error', role: 'alert'});
  const root = h('section', {class: 'history-screen', id: 'replay-view'}, [heading, info, status]);
  container.replaceChildren(root);
  const viewer = new ReplayViewer(root);
  const onKey = (event) => viewer.key(event);
  document.addEventListener('keydown', onKey);
  const screen = {
    close() {
      document.removeEventListener('keydown', onKey);
    },
  };
  let variants = [];
  try {
    variants = await variantsList();
  } catch (e) {
    status.textContent = t('history.error', {message: e.message});
    return screen;
  }
  const variantOf = (id) => variants.find((v) => v.id === id);

  if (gameId) {
    try {
      const game = await getReplay(gameId);
      const variant = variantOf(game.replay.variant);
      heading.textContent = `${t('history.replayTitle')} · ${variant.name}`;
      info.replaceChildren(...archivedHeader(game, variant));
      viewer.show(game.replay, variant);
      root.dataset.ready = 'true';
    } catch (e) {
      status.textContent = t('history.error', {message: e.message});
    }
    return screen;
  }

  // Upload: the file is read here and parsed by the server (the rules library).
  heading.textContent = t('history.uploadHeading');
  const input = h('input', {type: 'file', id: 'pdn-file', accept: '.pdn,.txt,text/plain'});
  const list = h('ul', {class: 'game-choices', id: 'pdn-games'});
  const failures = h('ul', {class: 'game-failures', id: 'pdn-failures'});
  const found = h('p', {id: 'pdn-found', 'aria-live': 'polite'});
  info.replaceChildren(
    h('p', {text: t('history.uploadHelp')}),
    h('label', {class: 'field'}, [h('span', {text: t('history.uploadLabel')}), input]),
    found,
    list,
    failures,
  );
  input.addEventListener('change', async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    status.textContent = '';
    list.replaceChildren();
    failures.replaceChildren();
    if (file.size > MAX_UPLOAD_BYTES) {
      status.textContent = t('history.tooLarge');
      return;
    }
    found.textContent = t('history.uploading');
    let result;
    try {
      result = await replayPdn(await file.text());
    } catch (e) {
      found.textContent = '';
      status.textContent = t('history.error', {message: e.message});
      return;
    }
    const games = result.games || [];
    found.textContent = t('history.gamesFound', {count: games.length});
    for (const game of games) {
      const label = t('history.gameLabel', {number: game.number, white: game.white || '?', black: game.black || '?', result: game.result});
      if (game.error) {
        failures.append(h('li', {'data-game': game.number, text: t('history.gameFailed', {number: game.number, message: game.error})}));
        continue;
      }
      const variant = variantOf(game.replay.variant);
      const pick = h('button', {
        class: 'game-choice',
        'data-game': game.number,
        text: `${label} · ${variant ? variant.name : game.replay.variant}`,
        onclick: () => {
          for (const other of list.querySelectorAll('button')) other.removeAttribute('aria-pressed');
          pick.setAttribute('aria-pressed', 'true');
          viewer.show(game.replay, variant);
          viewer.go(0);
        },
      });
      list.append(h('li', {}, [pick]));
    }
    for (const failure of result.failures || []) {
      failures.append(
        h('li', {
          'data-game': failure.number,
          text: t('history.readFailed', {number: failure.number, line: failure.line, column: failure.column, message: failure.message}),
        }),
      );
    }
    if (games.length === 0 && (result.failures || []).length === 0) status.textContent = t('history.noGames');
    root.dataset.ready = 'true';
  });
  root.dataset.ready = 'true';
  return screen;
}
