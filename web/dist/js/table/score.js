// The running score of a table across its games, per seat (a seat keeps its
// player while colours swap at each rematch): a win is 1, a draw ½ each.
// Pure: read from the table socket's Score ({gamesFinished, draws, wins[2]}).

/** @param {any} score @returns {[number, number]} */
export function seatPoints(score) {
  const wins = (score && score.wins) || [];
  const draws = Number((score && score.draws) || 0);
  return [Number(wins[0] || 0) + draws / 2, Number(wins[1] || 0) + draws / 2];
}

// "1½" rather than "1.5": how a score is written.
/** @param {number} points */
export function formatPoints(points) {
  const whole = Math.floor(points);
  const half = points - whole >= 0.5;
  if (!half) return String(whole);
  return whole === 0 ? '½' : `${whole}½`;
}
