// The running score of a table across its games, per seat (a seat keeps its
// player while colours swap at each rematch): a win is 1, a draw ½ each.
// Pure: computed from the table's TableGameFinished events, each carrying
// the table as it was then (so the seats' colours in that game).

const WIN = {GAME_RESULT_WHITE_WINS: 'white', GAME_RESULT_BLACK_WINS: 'black'};

/**
 * @typedef {{points: [number, number], counted: string[]}} Score
 */

/** @returns {Score} */
export function emptyScore() {
  return {points: [0, 0], counted: []};
}

// Adds one finished game to `score` (unchanged if that game is already
// counted: a replayed event after a reconnect or a reload counts once).
// event: a TableEvent JSON with gameFinished; returns a new Score.
/** @param {Score} score @param {any} event @returns {Score} */
export function addFinishedGame(score, event) {
  const finished = event && event.gameFinished;
  if (!finished || !finished.gameId || score.counted.includes(finished.gameId)) return score;
  const seats = (event.table && event.table.seats) || [];
  const points = /** @type {[number, number]} */ ([...score.points]);
  const winner = WIN[finished.result];
  if (winner) {
    const index = seats.findIndex((seat) => colorOf(seat.color) === winner);
    const at = index >= 0 ? Number(seats[index].index ?? index) : -1;
    if (at === 0 || at === 1) points[at] += 1;
  } else if (finished.result === 'GAME_RESULT_DRAW') {
    points[0] += 0.5;
    points[1] += 0.5;
  } else {
    return score;
  }
  return {points, counted: [...score.counted, finished.gameId]};
}

/** @param {string} color */
function colorOf(color) {
  return color === 'COLOR_WHITE' ? 'white' : color === 'COLOR_BLACK' ? 'black' : '';
}

// "1½" rather than "1.5": how a score is written.
/** @param {number} points */
export function formatPoints(points) {
  const whole = Math.floor(points);
  const half = points - whole >= 0.5;
  if (!half) return String(whole);
  return whole === 0 ? '½' : `${whole}½`;
}
