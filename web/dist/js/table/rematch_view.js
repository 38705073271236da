// The "play again" vote at the end of a game: open for 2 minutes (until the
// table's rematch_deadline); a new game starts when both seats voted, with
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

// table: a Table JSON; seats: the SeatViews (rematchVote, yours); nowMs: the
// server's time. A spectator (no seat of theirs) sees the window, never votes.
/** @param {any} table @param {any[]} seats @param {number} nowMs @returns {RematchState} */
export function rematchState(table, seats, nowMs) {
  const closed = {open: false, remainingMs: 0, text: '', myVote: false, otherVote: false, canVote: false, expired: false};
  if (!table || table.status !== 'TABLE_STATUS_FINISHED') return closed;
  const deadline = instantMs(table.rematchDeadline);
  const mine = (seats || []).find((s) => s.yours);
  const theirs = (seats || []).find((s) => !s.yours);
  const myVote = Boolean(mine && mine.rematchVote);
  const otherVote = Boolean(mine && theirs && theirs.rematchVote);
  const remainingMs = Number.isFinite(deadline) ? Math.max(0, deadline - nowMs) : 0;
  const expired = !Number.isFinite(deadline) || remainingMs <= 0;
  return {
    open: !expired,
    remainingMs,
    text: Number.isFinite(deadline) ? formatCountdown(remainingMs) : '',
    myVote,
    otherVote,
    canVote: Boolean(mine) && !myVote && !expired,
    expired,
  };
}
