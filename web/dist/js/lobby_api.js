// The lobby's REST calls (docs/WEB_PROTOCOL.md, "Lobby"). Every action sends
// an Idempotency-Key made once per user action and reused by its retries.

import {call, newIdempotencyKey, withRetries, withSession} from './api.js';

/**
 * @typedef {{kind?: string, playerId?: string, displayName?: string, botLevel?: string}} Seat
 * @typedef {{index?: number, occupant?: Seat | null, color?: string}} TableSeat
 * @typedef {{mandatoryCapture?: boolean, fortyMoveRuleInTotal?: boolean, moveLimit?: number,
 *            alternateFirstPlayer?: boolean, showPossibleMoves?: boolean,
 *            computerPlaysForAbsent?: boolean, spectatorsMuted?: boolean}} VariantOptions
 * @typedef {{tableId: string, variant: string, options?: VariantOptions, timePerMove?: string | null,
 *            rated?: boolean, hasPassword?: boolean, creatorPlayerId?: string, seats?: TableSeat[],
 *            status?: string, gameId?: string, inviteCode?: string}} Table
 * @typedef {{gameId: string, color: string, playerToken: string}} PlayerToken
 * @typedef {{table: Table, invitePath: string, yourTokens: PlayerToken[], waiting: boolean}} TableAnswer
 * @typedef {{tables: Table[], nextPageToken: string}} TablePage
 * @typedef {{variant?: string, timePerMove?: string, openSeatsOnly?: boolean, pageSize?: number,
 *            pageToken?: string}} TableFilters
 */

/** @param {string} method @param {string} path @param {object} [body] */
function act(method, path, body) {
  const key = newIdempotencyKey();
  return withRetries(() => withSession(() => call(method, path, body, key)));
}

/** @param {string} id */
const tablePath = (id) => `/api/tables/${encodeURIComponent(id)}`;

/** @param {TableFilters} filters @returns {Promise<TablePage>} */
export function listTables(filters) {
  const query = new URLSearchParams();
  if (filters.variant) query.set('variant', filters.variant);
  if (filters.timePerMove) query.set('timePerMove', filters.timePerMove);
  if (filters.openSeatsOnly) query.set('openSeatsOnly', 'true');
  if (filters.pageSize) query.set('pageSize', String(filters.pageSize));
  if (filters.pageToken) query.set('pageToken', filters.pageToken);
  return withSession(() => call('GET', `/api/tables?${query}`)).then((page) => ({
    tables: page.tables || [],
    nextPageToken: page.nextPageToken || '',
  }));
}

/**
 * @param {{variant: string, options: VariantOptions, timePerMove?: string, rated: boolean, password: string}} request
 * @returns {Promise<TableAnswer>}
 */
export function createTable(request) {
  return act('POST', '/api/tables', request);
}

/** @param {string} id @returns {Promise<TableAnswer>} */
export function getTable(id) {
  return withSession(() => call('GET', tablePath(id)));
}

/** @param {string} id @param {string} password @returns {Promise<TableAnswer>} */
export function joinTable(id, password) {
  return act('POST', `${tablePath(id)}/join`, password ? {password} : {});
}

/** @param {string} code @returns {Promise<TableAnswer>} */
export function joinByInvite(code) {
  return act('POST', `/api/invites/${encodeURIComponent(code)}/join`, {});
}

/** @param {string} id @returns {Promise<TableAnswer>} */
export function leaveTable(id) {
  return act('POST', `${tablePath(id)}/leave`, {});
}

// The creator seats the computer, at `level`, in every open seat.
/** @param {string} id @param {string} level @returns {Promise<TableAnswer>} */
export function fillSeatsWithBots(id, level) {
  return act('POST', `${tablePath(id)}/bots`, {level});
}

/**
 * @param {{variant: string, options?: VariantOptions, timePerMove?: string, rated?: boolean}} request
 * @returns {Promise<TableAnswer>}
 */
export function quickPair(request) {
  return act('POST', '/api/quick-pair', request);
}

/** @param {string} id @returns {Promise<TableAnswer>} */
export function pairingStatus(id) {
  return withSession(() => call('GET', `${tablePath(id)}/pairing`));
}

/**
 * @param {{variant: string, level: string, color: string}} request
 * @returns {Promise<TableAnswer>}
 */
export function playComputer(request) {
  return act('POST', '/api/play-computer', request);
}
