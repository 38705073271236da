// Whether a seat's player is here: connected, disconnected since when (and
// how long before the 2-minute rule ends the game), the computer standing in
// for them, or the seat is the computer itself. Pure.

import {formatCountdown, instantMs} from './time.js';

/**
 * @typedef {{
 *   state: 'connected'|'disconnected'|'computer'|'bot'|'empty',
 *   sinceMs: number,
 *   awayMs: number,
 *   abandonInMs: number,
 *   abandonText: string,
 * }} PresenceState
 * @typedef {{connected?: boolean, lastSeenAt?: string, abandonDeadline?: string, disconnectedAt?: string}} Presence
 */

// player: a GameState's PlayerState (seat, connected, computerPlaying);
// presence: what the clock or the socket says of that seat, when known
// (lastSeenAt / disconnectedAt: since when it is away; abandonDeadline: when
// the game ends if it stays away); nowMs: the server's time.
/** @param {any} player @param {Presence|null|undefined} presence @param {number} nowMs @returns {PresenceState} */
export function presenceState(player, presence, nowMs) {
  const none = {sinceMs: NaN, awayMs: 0, abandonInMs: NaN, abandonText: ''};
  const seat = (player && player.seat) || {};
  if (!seat.kind || seat.kind === 'SEAT_KIND_UNSPECIFIED') return {state: 'empty', ...none};
  if (seat.kind === 'SEAT_KIND_BOT') return {state: 'bot', ...none};
  const connected = presence && typeof presence.connected === 'boolean' ? presence.connected : Boolean(player.connected);
  if (connected) return {state: 'connected', ...none};
  const sinceMs = instantMs((presence && (presence.disconnectedAt || presence.lastSeenAt)) || '');
  const deadline = instantMs((presence && presence.abandonDeadline) || '');
  const abandonInMs = Number.isFinite(deadline) ? Math.max(0, deadline - nowMs) : NaN;
  return {
    state: player.computerPlaying ? 'computer' : 'disconnected',
    sinceMs,
    awayMs: Number.isFinite(sinceMs) ? Math.max(0, nowMs - sinceMs) : 0,
    abandonInMs,
    abandonText: Number.isFinite(abandonInMs) ? formatCountdown(abandonInMs) : '',
  };
}
