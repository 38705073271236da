// The gateway's account routes (docs/WEB_PROTOCOL.md, "Accounts") and the
// page-wide news that the session changed (the header listens for it).

import {ApiError, call, createSession} from './api.js';

/** @typedef {{playerId?: string, displayName?: string, kind?: string}} SessionInfo */

export const SESSION_CHANGED = 'draughts:session-changed';

/** @param {SessionInfo|null} session */
function announce(session) {
  window.dispatchEvent(new CustomEvent(SESSION_CHANGED, {detail: session}));
}

/** The cookie's session, or null when there is none (never makes one). @returns {Promise<SessionInfo|null>} */
export async function currentSession() {
  try {
    return await call('GET', '/api/session');
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
}

/** @param {SessionInfo|null} session */
export function isPerson(session) {
  return !!session && session.kind === 'person';
}

/** @param {string} name @param {string} password @returns {Promise<SessionInfo>} */
export async function register(name, password) {
  const session = await call('POST', '/api/accounts', {name, password});
  announce(session);
  return session;
}

/** @param {string} name @param {string} password @returns {Promise<SessionInfo>} */
export async function login(name, password) {
  const session = await call('POST', '/api/login', {name, password});
  announce(session);
  return session;
}

// A logged-out browser carries on as a new guest, as it did before logging in.
/** @returns {Promise<SessionInfo>} */
export async function logout() {
  try {
    await call('POST', '/api/logout');
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 401) throw e;
  }
  const guest = await createSession();
  announce(guest);
  return guest;
}

/** @param {string} currentPassword @param {string} newPassword @returns {Promise<SessionInfo>} */
export async function changePassword(currentPassword, newPassword) {
  const session = await call('POST', '/api/account/password', {currentPassword, newPassword});
  announce(session);
  return session;
}

/** @param {string} password @returns {Promise<SessionInfo>} */
export async function deleteAccount(password) {
  await call('DELETE', '/api/account', {password});
  const guest = await createSession();
  announce(guest);
  return guest;
}
