// Square numbers <-> rows and columns of the diagram (row 0 at the top,
// Black's side), as the rules library numbers them (libs/rules/rules/geometry.h):
// dark boards number the dark squares row by row from the top-left, the top
// row's first dark square in the second column; the full board (Turkish,
// playable "all") numbers all 64 squares row by row.

export class Geometry {
  // board: {rows, cols, playable: 'dark'|'all'} from GET /api/variants.
  constructor(board) {
    this.rows = Number(board.rows);
    this.cols = Number(board.cols);
    this.all = board.playable === 'all';
    this.perRow = this.all ? this.cols : this.cols / 2;
    this.count = this.rows * this.perRow;
  }

  isPlayable(row, col) {
    if (row < 0 || row >= this.rows || col < 0 || col >= this.cols) return false;
    return this.all || (row + col) % 2 === 1;
  }

  // 0 for a light square or off the board.
  squareAt(row, col) {
    if (!this.isPlayable(row, col)) return 0;
    return this.all ? row * this.cols + col + 1 : row * this.perRow + Math.floor(col / 2) + 1;
  }

  // {row, col} of a square number 1..count.
  position(square) {
    const i = square - 1;
    const row = Math.floor(i / this.perRow);
    const index = i % this.perRow;
    if (this.all) return {row, col: index};
    return {row, col: 2 * index + (row % 2 === 0 ? 1 : 0)};
  }
}
