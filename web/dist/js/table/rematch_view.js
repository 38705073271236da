// The "play again" vote at the end of a game: open for 2 minutes (until the
// table's rematch_deadline), a new game starts when both seats voted, with
// the colours swapped. Pure.

import {formatCountdown, instantMs} from './time.js';

/**
 * @typedef {{
 *   open: boolean,
 *   remainingMs: number,
 *   text: string,
 *   myVote: boolean,
 *   otherVote: boolean,
 *   canVote: boolean,
 *   expired: boolean,
 * }} RematchState
 */

// table: a Table JSON; mySeat: this page's seat index (0/1) or -1 when
// watching; nowMs: the server's time.
/** @param {any} table @param {number} mySeat @param {number} nowMs @returns {RematchState} */
export function rematchState(table, mySeat, nowMs) {
  const closed = {open: false, remainingMs: 0, text: '', myVote: false, otherVote: false, canVote: false, expired: false};
  if (!table || table.status !== 'TABLE_STATUS_FINISHED') return closed;
  const deadline = instantMs(table.rematchDeadline);
  const seats = table.seats || [];
  const vote = (/** @type {number} */ index) => Boolean((seats.find((s, i) => Number(s.index ?? i) === index) || {}).rematchVote);
  const myVote = mySeat >= 0 && vote(mySeat);
  const otherVote = mySeat >= 0 ? vote(1 - mySeat) : false;
  const remainingMs = Number.isFinite(deadline) ? Math.max(0, deadline - nowMs) : 0;
  const expired = Number.isFinite(deadline) && remainingMs <= 0;
  return {
    open: !expired,
    remainingMs,
    text: Number.isFinite(deadline) ? formatCountdown(remainingMs) : '',
    myVote,
    otherVote,
    canVote: mySeat >= 0 && !myVote && !expired,
    expired,
  };
}
