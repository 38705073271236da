// The board component: given a position, its legal moves, an orientation
// and the display options, it draws the board and lets the player choose
// one of those moves by tapping squares, by drag and drop or with the
// keyboard. It knows no rules and no server: it is driven only by the data
// given to update(), and hands the chosen LegalMove to onMove.

import {BoardView} from './board_view.js';
import {MovePicker} from './move_picker.js';

/**
 * @typedef {import('./move_picker.js').LegalMove} LegalMove
 * @typedef {import('./board_view.js').Piece} Piece
 * @typedef {import('./board_view.js').BoardOptions} BoardOptions
 * @typedef {{
 *   pieces: Map<number, Piece>,
 *   legalMoves: LegalMove[],
 *   mustCapture: boolean,
 *   flipped: boolean,
 *   interactive: boolean,
 *   lastMove: {path?: number[]}|null,
 *   options: BoardOptions,
 * }} BoardData
 * @typedef {{
 *   onMove: (move: LegalMove) => void,
 *   onNotice?: (key: string) => void,
 * }} BoardHandlers
 */

export class Board {
  /** @param {HTMLElement} container @param {BoardHandlers} handlers */
  constructor(container, handlers) {
    this.handlers = handlers;
    this.picker = new MovePicker();
    this.movesKey = '';
    /** @type {BoardData} */
    this.data = {
      pieces: new Map(),
      legalMoves: [],
      mustCapture: false,
      flipped: false,
      interactive: false,
      lastMove: null,
      options: {showMoves: true, showNumbers: true},
    };
    this.view = new BoardView(container, {
      onTap: (square) => this.tap(square),
      onDrop: (from, to) => this.drop(from, to),
      onCancel: () => this.clearSelection(),
      canDrag: (square) => this.data.interactive && this.picker.isMovable(square),
      startSquare: () => this.startSquare(),
    });
  }

  // variant: an entry of GET /api/variants (board size, numbering, mirroring, colour names).
  /** @param {Parameters<BoardView['setVariant']>[0]} variant */
  setVariant(variant) {
    this.view.setVariant(variant);
    this.movesKey = '';
  }

  // Redraws from `data`. What the player has picked up survives while the
  // legal moves stay the same (a draw offer, a presence change); a new
  // position, or the board turning read-only, drops it.
  /** @param {BoardData} data */
  update(data) {
    this.data = data;
    const key = data.interactive ? movesKey(data.legalMoves, data.mustCapture) : '';
    if (key === '' || key !== this.movesKey) this.picker = new MovePicker(data.legalMoves, data.mustCapture);
    this.movesKey = key;
    this.render();
  }

  clearSelection() {
    this.picker.reset();
    this.render();
  }

  render() {
    const data = this.data;
    this.view.setFlipped(data.flipped);
    this.view.setOptions(data.options);
    this.view.render({
      pieces: data.pieces,
      lastMove: data.lastMove,
      markers: data.interactive ? this.picker.markers() : null,
      interactive: data.interactive,
    });
  }

  /** @param {number} square */
  tap(square) {
    if (!this.data.interactive) return;
    this.outcome(this.picker.tap(square));
  }

  /** @param {number} from @param {number} to */
  drop(from, to) {
    if (!this.data.interactive) return;
    this.outcome(this.picker.drop(from, to));
  }

  /** @param {import('./move_picker.js').PickResult} result */
  outcome(result) {
    const notice = this.handlers.onNotice || (() => {});
    if (result.kind === 'play' && result.move) {
      notice('');
      this.handlers.onMove(result.move);
      return;
    }
    if (result.kind === 'illegal') notice('illegalDrop');
    else if (result.kind === 'step' && this.picker.destination) notice('multiRoute');
    else notice('');
    this.render();
  }

  // Where the keyboard starts: the piece picked up, else a piece that can move.
  startSquare() {
    const prefix = this.picker.prefix;
    if (prefix.length > 0) return prefix[prefix.length - 1];
    const froms = [...this.picker.froms];
    return froms.length > 0 ? froms[froms.length - 1] : 0;
  }
}

/** @param {LegalMove[]} moves @param {boolean} mustCapture */
function movesKey(moves, mustCapture) {
  return `${mustCapture ? 'x' : '-'}|${moves.map((m) => (m.path || []).join(',')).join(';')}`;
}
