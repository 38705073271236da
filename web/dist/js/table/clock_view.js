// The move timer of the side to move: how long is left before a random
// move is played for it, with a warning in the last 10 seconds. Pure: it
// reads the game's move deadline and the server's "now".

import {formatCountdown, instantMs} from './time.js';

export const WARNING_MS = 10000;

/**
 * @typedef {{
 *   running: boolean,
 *   color: 'white'|'black'|'',
 *   remainingMs: number,
 *   text: string,
 *   warning: boolean,
 *   expired: boolean,
 * }} ClockState
 */

// game: a GameState (JSON); nowMs: the server's time in ms.
/** @param {any} game @param {number} nowMs @returns {ClockState} */
export function clockState(game, nowMs) {
  const idle = {running: false, color: /** @type {''} */ (''), remainingMs: 0, text: '', warning: false, expired: false};
  if (!game) return idle;
  const ongoing = !game.result || game.result === 'GAME_RESULT_ONGOING' || game.result === 'GAME_RESULT_UNSPECIFIED';
  const deadline = instantMs(game.moveDeadline);
  if (!ongoing || !Number.isFinite(deadline)) return idle;
  const color = game.sideToMove === 'COLOR_WHITE' ? 'white' : game.sideToMove === 'COLOR_BLACK' ? 'black' : '';
  const remainingMs = Math.max(0, deadline - nowMs);
  return {
    running: true,
    color,
    remainingMs,
    text: formatCountdown(remainingMs),
    warning: remainingMs <= WARNING_MS,
    expired: remainingMs <= 0,
  };
}
