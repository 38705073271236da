// Draws a board in SVG and reports taps, drops and keyboard picks as square
// numbers. It knows nothing about rules: the board component (board.js)
// passes the pieces and the marks to show.

import {Geometry} from './geometry.js';
import {t} from './strings.js';

const SVG = 'http://www.w3.org/2000/svg';
const CELL = 100;
const DRAG_THRESHOLD_PX = 8;

// Piece colours by the name a rule set gives its sides (English: "Red").
const PALETTE = {
  white: {fill: '#f4efe1', stroke: '#7a6f5a', crown: '#8a6d1d'},
  black: {fill: '#2a2a2a', stroke: '#000000', crown: '#e0b84a'},
  red: {fill: '#c0392b', stroke: '#6e1a12', crown: '#ffd966'},
};

/**
 * @typedef {{color: 'white'|'black', king: boolean}} Piece
 * @typedef {{fill: string, stroke: string, crown: string}} PieceColors
 * @typedef {{showMoves: boolean, showNumbers: boolean, coordinates?: boolean}} BoardOptions
 * @typedef {{style: 'numbers'|'coordinates', squareNames: string[]}} SquareNotation
 * @typedef {{
 *   onTap: (square: number) => void,
 *   onDrop: (from: number, to: number) => void,
 *   onCancel: () => void,
 *   canDrag: (square: number) => boolean,
 *   startSquare: () => number,
 * }} ViewHandlers
 * @typedef {{
 *   pieces: Map<number, Piece>,
 *   lastMove: {path?: number[]}|null,
 *   markers: import('./move_picker.js').Markers|null,
 *   interactive: boolean,
 * }} ViewState
 */

export class BoardView {
  /** @param {HTMLElement} container @param {ViewHandlers} handlers */
  constructor(container, handlers) {
    this.container = container;
    this.handlers = handlers;
    this.flipped = false;
    /** @type {BoardOptions} */
    this.options = {showMoves: true, showNumbers: true};
    /** The keyboard's square (0: none yet). */
    this.cursor = 0;
    /** @type {{square: number, x: number, y: number, dragging: boolean, ghost: SVGElement|null}|null} */
    this.press = null;
    /** @type {ViewState|null} */
    this.state = null;
    this.svg = /** @type {SVGSVGElement} */ (document.createElementNS(SVG, 'svg'));
    this.svg.setAttribute('id', 'board');
    // Taps, drags and the keyboard all choose moves: an application, not a picture.
    this.svg.setAttribute('role', 'application');
    this.svg.setAttribute('aria-roledescription', t('board'));
    this.svg.setAttribute('aria-label', t('boardHelp'));
    this.svg.setAttribute('tabindex', '0');
    container.replaceChildren(this.svg);
    this.svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    this.svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    this.svg.addEventListener('pointercancel', () => this.endDrag());
    this.svg.addEventListener('keydown', (e) => this.keyDown(e));
    this.svg.addEventListener('blur', () => this.redraw());
  }

  /** @param {BoardOptions} options */
  setOptions(options) {
    this.options = {
      showMoves: options.showMoves !== false,
      showNumbers: options.showNumbers !== false,
      coordinates: Boolean(options.coordinates),
    };
    this.svg.dataset.showMoves = String(this.options.showMoves);
    this.svg.dataset.showNumbers = String(this.options.showNumbers);
    this.svg.dataset.coordinates = String(this.options.coordinates);
  }

  // variant: an entry of GET /api/variants.
  // colorNames are shown (in the page's language); the palette follows the
  // server's English names (englishColorNames, when the names were translated).
  /** @param {{board: {rows: number, cols: number, playable: string, mirrored?: boolean}, colorNames?: {white?: string, black?: string}, englishColorNames?: {white?: string, black?: string}, notation?: SquareNotation}} variant */
  setVariant(variant) {
    this.variant = variant;
    /** @type {SquareNotation|null} The federation's square names (coordinates option). */
    this.notation = variant.notation && Array.isArray(variant.notation.squareNames) ? variant.notation : null;
    this.geometry = new Geometry(variant.board);
    this.mirrored = Boolean(variant.board.mirrored);
    const names = variant.colorNames || {};
    this.colorNames = {white: String(names.white || 'White'), black: String(names.black || 'Black')};
    const english = variant.englishColorNames || names;
    this.colors = {
      white: PALETTE[String(english.white || 'white').toLowerCase()] || PALETTE.white,
      black: PALETTE[String(english.black || 'black').toLowerCase()] || PALETTE.black,
    };
    const g = this.geometry;
    this.svg.setAttribute('viewBox', `0 0 ${g.cols * CELL} ${g.rows * CELL}`);
    this.svg.dataset.rows = String(g.rows);
    this.svg.dataset.cols = String(g.cols);
    this.cursor = 0;
    this.svg.dataset.playable = g.all ? 'all' : 'dark';
  }

  setFlipped(flipped) {
    this.flipped = Boolean(flipped);
    this.svg.dataset.flipped = this.flipped ? 'true' : 'false';
  }

  // The top-left corner of a square on screen, after flipping and mirroring.
  corner(square) {
    const {row, col} = this.geometry.position(square);
    return this.cellCorner(row, col);
  }

  cellCorner(row, col) {
    const g = this.geometry;
    let r = row;
    let c = this.mirrored ? g.cols - 1 - col : col;
    if (this.flipped) {
      r = g.rows - 1 - r;
      c = g.cols - 1 - c;
    }
    return {x: c * CELL, y: r * CELL};
  }

  centre(square) {
    const {x, y} = this.corner(square);
    return {x: x + CELL / 2, y: y + CELL / 2};
  }

  /** @param {ViewState} state */
  render(state) {
    this.state = state;
    this.redraw();
  }

  redraw() {
    const state = this.state;
    if (!state || !this.geometry) return;
    const g = this.geometry;
    const layers = {
      squares: el('g', {class: 'squares'}),
      last: el('g', {class: 'last-move'}),
      trail: el('g', {class: 'trail-layer'}),
      pieces: el('g', {class: 'pieces'}),
      numbers: el('g', {class: 'numbers'}),
      marks: el('g', {class: 'marks'}),
    };
    for (let row = 0; row < g.rows; row++) {
      for (let col = 0; col < g.cols; col++) {
        const {x, y} = this.cellCorner(row, col);
        const square = g.squareAt(row, col);
        const dark = (row + col) % 2 === 1;
        const attrs = {class: `sq ${dark ? 'dark' : 'light'}`, x, y, width: CELL, height: CELL};
        if (square) attrs['data-square'] = square;
        layers.squares.append(el('rect', attrs));
        if (square && this.options.showNumbers && !this.edgeCoordinates()) {
          const label = el('text', {class: 'num', x: x + 4, y: y + 18});
          label.textContent = this.squareLabel(square);
          layers.numbers.append(label);
        }
      }
    }
    if (this.options.showNumbers && this.edgeCoordinates()) this.drawEdgeCoordinates(layers.numbers);
    const last = state.lastMove;
    if (last && Array.isArray(last.path)) {
      for (const square of last.path) {
        const {x, y} = this.corner(square);
        layers.last.append(el('rect', {class: 'last', 'data-square': square, x, y, width: CELL, height: CELL}));
      }
    }
    for (const [square, piece] of state.pieces) {
      if (square < 1 || square > g.count) continue;
      layers.pieces.append(this.pieceElement(square, piece));
    }
    const m = state.markers;
    if (m) this.drawMarks(layers, this.options.showMoves ? m : {...m, targets: [], canCapture: [], crosses: []}, state.pieces);
    // The keyboard's square shows while the board has the focus.
    if (this.cursor && document.activeElement === this.svg) {
      const {x, y} = this.corner(this.cursor);
      layers.marks.append(el('rect', {class: 'cursor', 'data-square': this.cursor, x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8}));
    }
    this.svg.classList.toggle('interactive', Boolean(state.interactive));
    this.svg.replaceChildren(...Object.values(layers));
  }

  // With the coordinates option, a federation that names squares by
  // coordinates gets files and ranks along the board's edges instead of a
  // name on every square.
  edgeCoordinates() {
    return Boolean(this.options.coordinates && this.notation && this.notation.style === 'coordinates');
  }

  // The name written on a square: the federation's number with the
  // coordinates option (Italian and Spanish number their own way), else the
  // standard number (the one data-square always carries).
  /** @param {number} square */
  squareLabel(square) {
    if (this.options.coordinates && this.notation) return String(this.notation.squareNames[square - 1] || square);
    return String(square);
  }

  // Files under the bottom row and ranks beside the left column, as shown
  // (flipped or mirrored), read from the federation's square names.
  /** @param {SVGElement} layer */
  drawEdgeCoordinates(layer) {
    const g = this.geometry;
    /** @type {Map<number, string>} */
    const files = new Map();
    /** @type {Map<number, string>} */
    const ranks = new Map();
    for (let square = 1; square <= g.count; square++) {
      const m = /^([a-z]+)(\d+)$/i.exec(this.notation.squareNames[square - 1] || '');
      if (!m) continue;
      const {x, y} = this.corner(square);
      files.set(x, m[1]);
      ranks.set(y, m[2]);
    }
    const bottom = (g.rows - 1) * CELL;
    for (const [x, name] of files) {
      const label = el('text', {class: 'coord file', 'data-coord': name, x: x + CELL - 6, y: bottom + CELL - 8, 'text-anchor': 'end'});
      label.textContent = name;
      layer.append(label);
    }
    for (const [y, name] of ranks) {
      const label = el('text', {class: 'coord rank', 'data-coord': name, x: 6, y: y + 22});
      label.textContent = name;
      layer.append(label);
    }
  }

  /** @param {number} square @param {Piece} piece */
  pieceElement(square, piece) {
    const {x, y} = this.centre(square);
    const colors = this.colors[piece.color];
    const group = el('g', {
      class: `piece ${piece.color}${piece.king ? ' king' : ''}`,
      'data-square': square,
      'data-piece': piece.king ? 'king' : 'man',
      'data-color': piece.color,
      transform: `translate(${x} ${y})`,
    });
    group.append(el('circle', {r: 36, fill: colors.fill, stroke: colors.stroke, 'stroke-width': 4}));
    group.append(el('circle', {r: 25, fill: 'none', stroke: colors.stroke, 'stroke-width': 2, opacity: 0.5}));
    if (piece.king) {
      group.append(
        el('path', {
          class: 'crown',
          d: 'M-20 10 L-22 -12 L-10 -2 L0 -18 L10 -2 L22 -12 L20 10 Z',
          fill: colors.crown,
          stroke: colors.stroke,
          'stroke-width': 2,
        }),
      );
    }
    return group;
  }

  drawMarks(layers, m, pieces) {
    if (m.trail.length > 1) {
      const points = m.trail.map((sq) => this.centre(sq)).map((p) => `${p.x},${p.y}`).join(' ');
      layers.trail.append(el('polyline', {class: 'trail', points}));
    }
    if (m.trail.length > 1 && pieces.has(m.trail[0])) {
      // Where the picked-up piece stands now, half-way through a capture.
      const {x, y} = this.centre(m.trail[m.trail.length - 1]);
      const colors = this.colors[pieces.get(m.trail[0]).color];
      layers.marks.append(
        el('circle', {class: 'waypoint', cx: x, cy: y, r: 30, fill: colors.fill, stroke: colors.stroke, 'stroke-width': 4}),
      );
    }
    for (const square of m.canCapture) {
      const {x, y} = this.centre(square);
      layers.marks.append(el('circle', {class: 'ring can-capture', 'data-square': square, cx: x, cy: y, r: 46}));
    }
    if (m.selected) {
      const {x, y} = this.centre(m.selected);
      layers.marks.append(el('circle', {class: 'ring selected', 'data-square': m.selected, cx: x, cy: y, r: 39}));
    }
    for (const {square, capture} of m.targets) {
      const {x, y} = this.centre(square);
      layers.marks.append(
        el('circle', {class: `ring target${capture ? ' capture' : ''}`, 'data-square': square, cx: x, cy: y, r: 34}),
      );
    }
    for (const square of m.crosses) {
      if (!pieces.has(square)) continue;
      const {x, y} = this.centre(square);
      const d = 24;
      const d2 = `M${x - d} ${y - d} L${x + d} ${y + d} M${x + d} ${y - d} L${x - d} ${y + d}`;
      // A light halo keeps the cross visible on red and black pieces alike.
      layers.marks.append(el('path', {class: 'cross-halo', d: d2}));
      layers.marks.append(el('path', {class: 'cross', 'data-square': square, d: d2}));
    }
  }

  // The square under a pointer event, or 0.
  /** @param {{clientX: number, clientY: number}} event */
  squareAtEvent(event) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm || !this.geometry) return 0;
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(ctm.inverse());
    const g = this.geometry;
    let c = Math.floor(p.x / CELL);
    let r = Math.floor(p.y / CELL);
    if (this.flipped) {
      r = g.rows - 1 - r;
      c = g.cols - 1 - c;
    }
    if (this.mirrored) c = g.cols - 1 - c;
    return g.squareAt(r, c);
  }

  /** @param {PointerEvent} event */
  pointerDown(event) {
    if (event.button !== undefined && event.button !== 0) return;
    const square = this.squareAtEvent(event);
    this.press = {square, x: event.clientX, y: event.clientY, dragging: false, ghost: null};
    try {
      this.svg.setPointerCapture(event.pointerId);
    } catch {
      // Synthetic events have no capturable pointer; taps still work.
    }
    event.preventDefault();
  }

  /** @param {PointerEvent} event */
  pointerMove(event) {
    const press = this.press;
    if (!press) return;
    if (!press.dragging) {
      const far = Math.hypot(event.clientX - press.x, event.clientY - press.y) > DRAG_THRESHOLD_PX;
      if (!far || !press.square || !this.handlers.canDrag(press.square)) return;
      press.dragging = true;
      const piece = this.svg.querySelector(`.piece[data-square="${press.square}"]`);
      if (piece) {
        press.ghost = /** @type {SVGElement} */ (piece.cloneNode(true));
        press.ghost.classList.add('ghost');
        press.ghost.removeAttribute('data-square');
        piece.classList.add('lifted');
        this.svg.append(press.ghost);
      }
    }
    if (press.ghost) {
      const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(this.svg.getScreenCTM().inverse());
      press.ghost.setAttribute('transform', `translate(${p.x} ${p.y})`);
    }
  }

  /** @param {PointerEvent} event */
  pointerUp(event) {
    const press = this.press;
    if (!press) return;
    const square = this.squareAtEvent(event);
    const dragged = press.dragging;
    this.endDrag();
    if (dragged) {
      if (square) this.handlers.onDrop(press.square, square);
      else this.handlers.onTap(press.square);
    } else if (square === press.square) {
      this.handlers.onTap(square);
    }
  }

  endDrag() {
    if (this.press && this.press.ghost) this.press.ghost.remove();
    for (const lifted of this.svg.querySelectorAll('.lifted')) lifted.classList.remove('lifted');
    this.press = null;
  }

  // Arrows move the keyboard's square across the board as it is shown,
  // Enter or Space taps it, Escape puts the picked-up piece back.
  /** @param {KeyboardEvent} event */
  keyDown(event) {
    if (!this.geometry) return;
    const steps = {ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0]};
    if (event.key in steps) {
      event.preventDefault();
      const start = this.cursor || this.handlers.startSquare() || 1;
      this.cursor = this.cursor ? this.neighbour(this.cursor, steps[event.key]) : start;
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      if (!this.cursor) this.cursor = this.handlers.startSquare() || 1;
      else this.handlers.onTap(this.cursor);
    } else if (event.key === 'Escape') {
      this.handlers.onCancel();
    } else {
      return;
    }
    this.describeCursor();
    this.redraw();
  }

  // The nearest square on screen in direction [dx, dy]: along the row for
  // left and right, on the next row (closest column) for up and down.
  /** @param {number} from @param {number[]} direction */
  neighbour(from, [dx, dy]) {
    const at = this.corner(from);
    let best = from;
    let bestCost = Infinity;
    for (let sq = 1; sq <= this.geometry.count; sq++) {
      const p = this.corner(sq);
      const cols = (p.x - at.x) / CELL;
      const rows = (p.y - at.y) / CELL;
      const ok = dx !== 0 ? rows === 0 && Math.sign(cols) === dx : rows === dy;
      const cost = dx !== 0 ? Math.abs(cols) : Math.abs(cols) + (cols < 0 ? 0.5 : 0);
      if (ok && cost < bestCost) {
        best = sq;
        bestCost = cost;
      }
    }
    return best;
  }

  describeCursor() {
    const piece = this.state && this.state.pieces.get(this.cursor);
    const what = piece ? t(piece.king ? 'pieceKing' : 'pieceMan', {color: this.colorNames[piece.color]}) : t('emptySquare');
    this.svg.setAttribute('aria-label', t('cursorAt', {square: this.cursor, what}));
  }
}

/** @param {string} name @param {Record<string, string|number>} attrs @returns {SVGElement} */
function el(name, attrs = {}) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVG, name));
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}
