// Whether a seat's player is here: connected, disconnected since when (and
// how long before the 2-minute rule ends the game), the computer standing in
// for them, or the seat is the computer itself. Pure.

import {formatCountdown, instantMs} from './time.js';

/**
 * @typedef {{
 *   state: 'connected'|'disconnected'|'computer'|'bot'|'empty',
 *   awayMs: number,
 *   abandonInMs: number,
 *   abandonText: string,
 * }} PresenceState
 */

// seat: a SeatView of the table socket ({occupant, connected,
// abandonDeadline, computerPlaying}); disconnectedAt: when the seat's
// SeatDisconnected event happened, if seen (RFC 3339); nowMs: the server's time.
/** @param {any} seat @param {string|undefined} disconnectedAt @param {number} nowMs @returns {PresenceState} */
export function presenceState(seat, disconnectedAt, nowMs) {
  const none = {awayMs: 0, abandonInMs: NaN, abandonText: ''};
  const occupant = (seat && seat.occupant) || {};
  // A player who left during a game at a table where the computer plays for
  // the absent: the seat is open, the computer plays the game on.
  if (!occupant.kind || occupant.kind === 'SEAT_KIND_UNSPECIFIED') return {state: seat && seat.computerPlaying ? 'computer' : 'empty', ...none};
  if (occupant.kind === 'SEAT_KIND_BOT') return {state: 'bot', ...none};
  if (seat.connected) return {state: 'connected', ...none};
  const since = instantMs(disconnectedAt);
  const deadline = instantMs(seat.abandonDeadline);
  const abandonInMs = Number.isFinite(deadline) ? Math.max(0, deadline - nowMs) : NaN;
  return {
    state: seat.computerPlaying ? 'computer' : 'disconnected',
    awayMs: Number.isFinite(since) ? Math.max(0, nowMs - since) : 0,
    abandonInMs,
    abandonText: Number.isFinite(abandonInMs) ? formatCountdown(abandonInMs) : '',
  };
}
