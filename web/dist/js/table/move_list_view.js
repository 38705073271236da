// The game's moves as a numbered list in the rule set's notation (the
// server writes each move as the rules library does: "32-28", "28x19x10"),
// one row per move number, the first side's move then the reply. Moves the
// clock played for a player who ran out of time are marked automatic.
// Pure.

/**
 * @typedef {{ply: number, notation: string, color: 'white'|'black', automatic: boolean}} MoveCell
 * @typedef {{number: number, first: MoveCell|null, second: MoveCell|null}} MoveRow
 */

// moves: GameState.moves; firstToMove: the side to move in the initial
// position ('white'|'black'); automaticPlies: the plies (1-based) that were
// automatic moves.
/**
 * @param {string[]} moves
 * @param {'white'|'black'} firstToMove
 * @param {Set<number>} [automaticPlies]
 * @returns {MoveRow[]}
 */
export function moveRows(moves, firstToMove, automaticPlies = new Set()) {
  const other = firstToMove === 'white' ? 'black' : 'white';
  /** @type {MoveRow[]} */
  const rows = [];
  (moves || []).forEach((notation, index) => {
    const ply = index + 1;
    const cell = {ply, notation, color: index % 2 === 0 ? firstToMove : other, automatic: automaticPlies.has(ply)};
    if (index % 2 === 0) rows.push({number: rows.length + 1, first: cell, second: null});
    else rows[rows.length - 1].second = cell;
  });
  return rows;
}

// The plies of automatic moves, from the game's events (MovePlayed.automatic).
// An undo takes its plies back, so a ply replayed by hand is not marked.
/** @param {any[]} events GameEvent JSON, in order @returns {Set<number>} */
export function automaticPlies(events) {
  const plies = new Set();
  for (const event of events || []) {
    if (event && event.movePlayed && event.movePlayed.automatic) plies.add(Number(event.ply));
    if (event && event.moveUndone) {
      for (const ply of [...plies]) if (ply > Number(event.ply)) plies.delete(ply);
    }
  }
  return plies;
}
