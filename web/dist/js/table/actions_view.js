// Which of a player's buttons are offered in a given state: offer a draw
// (not to the computer, which always refuses), accept or decline one,
// resign, take back a move against the computer. A spectator gets none. Pure.

/**
 * @typedef {{
 *   offerDraw: boolean, acceptDraw: boolean, declineDraw: boolean,
 *   resign: boolean, undo: boolean, drawPendingFromMe: boolean,
 * }} ActionsState
 */

const COLOR = {white: 'COLOR_WHITE', black: 'COLOR_BLACK'};

// game: GameState JSON; mine: this page's colour ('' when watching);
// vsComputer: the opponent is a bot; busy: an action is on its way.
/** @param {any} game @param {'white'|'black'|''} mine @param {{vsComputer: boolean, busy: boolean}} opts @returns {ActionsState} */
export function actionsState(game, mine, {vsComputer, busy}) {
  const none = {offerDraw: false, acceptDraw: false, declineDraw: false, resign: false, undo: false, drawPendingFromMe: false};
  if (!game || !mine) return none;
  const ongoing = !game.result || game.result === 'GAME_RESULT_ONGOING' || game.result === 'GAME_RESULT_UNSPECIFIED';
  if (!ongoing) return none;
  const offeredBy = game.drawOfferedBy || 'COLOR_UNSPECIFIED';
  const offerPending = offeredBy !== 'COLOR_UNSPECIFIED';
  const fromMe = offeredBy === COLOR[mine];
  const idle = !busy;
  return {
    offerDraw: idle && !vsComputer && !offerPending,
    acceptDraw: idle && offerPending && !fromMe,
    declineDraw: idle && offerPending && !fromMe,
    resign: idle,
    undo: idle && vsComputer && !game.rated && hasMoved(game, mine),
    drawPendingFromMe: fromMe,
  };
}

// Whether `mine` has played at least one move in this game.
/** @param {any} game @param {'white'|'black'} mine */
function hasMoved(game, mine) {
  const ply = Number(game.ply || 0);
  if (ply === 0) return false;
  if (ply >= 2) return true;
  // One ply played: it was mine if the side to move now is the other one.
  return game.sideToMove !== COLOR[mine];
}
