// Turns taps and drops into one of the server's legal moves. Pure logic (no
// DOM) so it can be tested under Node. A move is chosen by its path: the
// squares the piece stands on, from its start to its last landing square
// (LegalMove.path); the player builds that path one square at a time.

/**
 * @typedef {{notation: string, path: number[], captured?: number[], fromSquare?: number, toSquare?: number}} LegalMove
 * @typedef {{kind: 'play'|'select'|'step'|'deselect'|'none'|'illegal', move?: LegalMove}} PickResult
 * @typedef {{selected: number, trail: number[], targets: {square: number, capture: boolean}[],
 *            canCapture: number[], crosses: number[]}} Markers
 */

export class MovePicker {
  // legalMoves: LegalMove JSON objects ({notation, fromSquare, toSquare, path, captured});
  // mustCapture: the server says a capture is compulsory.
  /** @param {LegalMove[]} legalMoves @param {boolean} mustCapture */
  constructor(legalMoves = [], mustCapture = false) {
    this.moves = legalMoves
      .filter((m) => Array.isArray(m.path) && m.path.length >= 2)
      .map((m) => ({...m, captured: m.captured || []}));
    this.mustCapture = Boolean(mustCapture);
    this.froms = new Set(this.moves.map((m) => m.path[0]));
    this.reset();
  }

  // Back to "nothing chosen", except that a lone piece that must capture stays picked up,
  // so its landing squares and victims show at once.
  reset() {
    this.prefix = [];
    this.destination = 0;
    if (this.mustCapture && this.froms.size === 1) this.prefix = [...this.froms];
  }

  isMovable(square) {
    return this.froms.has(square);
  }

  // Legal moves that agree with what has been chosen so far.
  candidates() {
    return this.moves.filter(
      (m) =>
        this.prefix.every((sq, i) => m.path[i] === sq) &&
        (!this.destination || m.path[m.path.length - 1] === this.destination),
    );
  }

  // The squares the picked-up piece can go to next.
  targets() {
    if (this.prefix.length === 0) return [];
    const next = new Set();
    for (const m of this.candidates()) {
      if (m.path.length > this.prefix.length) next.add(m.path[this.prefix.length]);
    }
    return [...next];
  }

  // A tap (or click) on a square. Returns {kind, move?}: 'play' with the
  // chosen move, 'select', 'step', 'deselect' or 'none'.
  /** @param {number} square @returns {PickResult} */
  tap(square) {
    if (this.prefix.length > 0) {
      if (this.targets().includes(square)) {
        this.prefix.push(square);
        return this.advance();
      }
      if (this.prefix.length > 1 && square === this.prefix[this.prefix.length - 1]) {
        const done = this.complete();
        if (done.length > 0) return {kind: 'play', move: done[0]};
      }
    }
    if (this.isMovable(square)) {
      const sameAgain = this.prefix.length === 1 && this.prefix[0] === square;
      this.prefix = [];
      this.destination = 0;
      if (sameAgain && !(this.mustCapture && this.froms.size === 1)) return {kind: 'deselect'};
      this.prefix = [square];
      return {kind: 'select'};
    }
    const hadSelection = this.prefix.length > 0;
    this.reset();
    return {kind: hadSelection ? 'deselect' : 'none'};
  }

  // A piece dragged from `from` and dropped on `to`: the move ending there
  // (or, from a partly built capture, the next landing square). A drop no
  // move allows is 'illegal': the piece goes back and nothing stays picked
  // up, so no rings are left pointing at a move the player gave up.
  /** @param {number} from @param {number} to @returns {PickResult} */
  drop(from, to) {
    if (this.prefix[0] !== from) {
      if (!this.isMovable(from)) return {kind: 'none'};
      this.prefix = [from];
      this.destination = 0;
    }
    if (to === from && this.prefix.length === 1) return {kind: 'select'};
    const ending = this.candidates().filter((m) => m.path[m.path.length - 1] === to);
    if (ending.length === 1) return {kind: 'play', move: ending[0]};
    if (ending.length > 1) {
      // Several routes end there: keep what they share and let the player tap the rest.
      this.destination = to;
      const common = ending[0].path.slice(0, commonLength(ending.map((m) => m.path)));
      this.prefix = common.length > this.prefix.length ? common : this.prefix;
      return this.advance();
    }
    if (this.targets().includes(to)) return this.tap(to);
    this.reset();
    return {kind: 'illegal'};
  }

  // After a step: follow squares every remaining route shares, and play the
  // move once only one is left ("a capture with one way to go on is played out in full").
  /** @returns {PickResult} */
  advance() {
    for (;;) {
      const cands = this.candidates();
      if (cands.length === 0) {
        this.reset();
        return {kind: 'deselect'};
      }
      if (cands.length === 1) return {kind: 'play', move: cands[0]};
      if (cands.some((m) => m.path.length === this.prefix.length)) break;
      const next = new Set(cands.map((m) => m.path[this.prefix.length]));
      if (next.size !== 1) break;
      this.prefix.push([...next][0]);
    }
    const done = this.complete();
    const longer = this.candidates().some((m) => m.path.length > this.prefix.length);
    if (done.length > 0 && !longer) return {kind: 'play', move: done[0]};
    return {kind: 'step'};
  }

  complete() {
    return this.candidates().filter((m) => m.path.length === this.prefix.length);
  }

  // What the board draws: the picked-up piece and the path chosen so far,
  // rings where it can go (capture rings when the move takes), dashed rings
  // on every piece that can capture, and a cross on each piece it would take.
  /** @returns {Markers} */
  markers() {
    const cands = this.prefix.length > 0 ? this.candidates() : [];
    const crosses = new Set();
    for (const m of cands) for (const sq of m.captured) crosses.add(sq);
    return {
      selected: this.prefix[0] || 0,
      trail: this.prefix.slice(),
      targets: this.targets().map((square) => ({
        square,
        capture: cands.some((m) => m.path[this.prefix.length] === square && m.captured.length > 0),
      })),
      canCapture: this.mustCapture ? [...this.froms] : [],
      crosses: [...crosses],
    };
  }
}

function commonLength(paths) {
  let n = 0;
  while (paths.every((p) => p.length > n && p[n] === paths[0][n])) n++;
  return n;
}
