// A rated game's Elo change per player, shown beside each player's result
// on the table screen. The gateway sends it in a second gameOver of the
// same game, once the rating service has recorded the game
// (docs/WEB_PROTOCOL.md, "Table WebSocket").

const COLOR_OF = {white: 'COLOR_WHITE', black: 'COLOR_BLACK'};

/**
 * The Elo change of the player of `color` in `gameOver`, if it is the
 * game being shown and it changed their rating.
 * @param {any} gameOver the last gameOver frame's message (or null)
 * @param {string} gameId the game on the board
 * @param {'white'|'black'} color
 * @returns {{before: number, after: number, delta: number} | null}
 */
export function ratingChangeOf(gameOver, gameId, color) {
  if (!gameOver || !gameId || gameOver.gameId !== gameId) return null;
  const change = (gameOver.ratingChanges || []).find((/** @type {any} */ c) => c.color === COLOR_OF[color]);
  if (!change) return null;
  const before = Number(change.eloBefore || 0);
  const after = Number(change.eloAfter || 0);
  return {before, after, delta: after - before};
}

/**
 * The signed difference as shown: "+16", "−16" (a minus sign), "±0".
 * @param {number} delta
 */
export function formatDelta(delta) {
  if (delta > 0) return `+${delta}`;
  if (delta < 0) return `\u2212${-delta}`;
  return '\u00b10';
}
