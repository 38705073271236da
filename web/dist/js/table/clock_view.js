// The move timer of the side to move: how long is left before a random
// move is played for it, with a warning in the last 10 seconds. Pure: it
// reads the move timer of the socket's snapshots (ClockView) and the server's "now".

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

// clock: a ClockView JSON ({armed, color, expectedPly, deadline, ...});
// ply: the ply on the board (a timer for an older ply is stale); nowMs: the
// server's time in ms.
/** @param {any} clock @param {number} ply @param {number} nowMs @returns {ClockState} */
export function clockState(clock, ply, nowMs) {
  const idle = {running: false, color: /** @type {''} */ (''), remainingMs: 0, text: '', warning: false, expired: false};
  if (!clock || !clock.armed) return idle;
  if (Number.isFinite(ply) && Number(clock.expectedPly || 0) !== ply) return idle;
  const deadline = instantMs(clock.deadline);
  if (!Number.isFinite(deadline)) return idle;
  const color = clock.color === 'COLOR_WHITE' ? 'white' : clock.color === 'COLOR_BLACK' ? 'black' : '';
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
