// Draws a board in SVG and reports taps and drops as square numbers. It
// knows nothing about rules: the page passes the pieces and the marks to show.

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

export class BoardView {
  // handlers: {onTap(square), onDrop(from, to), canDrag(square)}.
  constructor(container, handlers) {
    this.container = container;
    this.handlers = handlers;
    this.flipped = false;
    this.svg = document.createElementNS(SVG, 'svg');
    this.svg.setAttribute('id', 'board');
    this.svg.setAttribute('role', 'img');
    this.svg.setAttribute('aria-label', t('board'));
    container.replaceChildren(this.svg);
    this.svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    this.svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    this.svg.addEventListener('pointercancel', () => this.endDrag());
  }

  // variant: an entry of GET /api/variants.
  setVariant(variant) {
    this.variant = variant;
    this.geometry = new Geometry(variant.board);
    this.mirrored = Boolean(variant.board.mirrored);
    const names = variant.colorNames || {};
    this.colors = {
      white: PALETTE[String(names.white || 'white').toLowerCase()] || PALETTE.white,
      black: PALETTE[String(names.black || 'black').toLowerCase()] || PALETTE.black,
    };
    const g = this.geometry;
    this.svg.setAttribute('viewBox', `0 0 ${g.cols * CELL} ${g.rows * CELL}`);
    this.svg.dataset.rows = g.rows;
    this.svg.dataset.cols = g.cols;
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

  // state: {pieces: Map<square,{color,king}>, lastMove: {path, captured}|null,
  //         markers: MovePicker.markers(), interactive: bool}
  render(state) {
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
        if (square) {
          const label = el('text', {class: 'num', x: x + 4, y: y + 18});
          label.textContent = String(square);
          layers.numbers.append(label);
        }
      }
    }
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
    if (m) this.drawMarks(layers, m, state.pieces);
    this.svg.classList.toggle('interactive', Boolean(state.interactive));
    this.svg.replaceChildren(...Object.values(layers));
  }

  pieceElement(square, piece) {
    const {x, y} = this.centre(square);
    const colors = this.colors[piece.color];
    const group = el('g', {
      class: `piece ${piece.color}${piece.king ? ' king' : ''}`,
      'data-square': square,
      'data-color': piece.color,
      'data-king': piece.king ? 'true' : 'false',
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

  pointerMove(event) {
    const press = this.press;
    if (!press) return;
    if (!press.dragging) {
      const far = Math.hypot(event.clientX - press.x, event.clientY - press.y) > DRAG_THRESHOLD_PX;
      if (!far || !press.square || !this.handlers.canDrag(press.square)) return;
      press.dragging = true;
      const piece = this.svg.querySelector(`.piece[data-square="${press.square}"]`);
      if (piece) {
        press.ghost = piece.cloneNode(true);
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
}

function el(name, attrs = {}) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}
