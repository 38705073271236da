// The ratings and history routes (docs/WEB_PROTOCOL.md, "Ratings and
// history"). They are public records: no session is made for them; the
// browser's cookie, when it has one, marks the caller's own line.

import {ApiError} from './api.js';

/** @param {Response} response @returns {Promise<any>} */
async function answer(response) {
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = null;
  }
  if (!response.ok) {
    const err = json && json.error ? json.error : {};
    throw new ApiError(err.code || `HTTP_${response.status}`, err.message || response.statusText, response.status);
  }
  if (json === null) throw new ApiError('INTERNAL', 'the server answered something that is not JSON', response.status);
  return json;
}

/** @param {string} path @param {RequestInit} init */
async function request(path, init = {}) {
  try {
    return await answer(await fetch(path, {credentials: 'same-origin', ...init}));
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw new ApiError('UNAVAILABLE', `cannot reach the server (${e.message})`, 0);
  }
}

/** @param {string} variant @param {string} month @param {string} pageToken */
export function getLeaderboard(variant, month = '', pageToken = '') {
  const query = new URLSearchParams({variant});
  if (month) query.set('month', month);
  if (pageToken) query.set('pageToken', pageToken);
  return request(`/api/leaderboard?${query}`);
}

/** @param {string} playerId */
export function getPlayer(playerId) {
  return request(`/api/players/${encodeURIComponent(playerId)}`);
}

/** @param {string} gameId */
export function getReplay(gameId) {
  return request(`/api/games/${encodeURIComponent(gameId)}/replay`);
}

/** @param {string} gameId */
export function pdnUrl(gameId) {
  return `/api/games/${encodeURIComponent(gameId)}/pdn`;
}

/** @param {string} text */
export function replayPdn(text) {
  return request('/api/pdn/replay', {method: 'POST', headers: {'Content-Type': 'text/plain; charset=utf-8'}, body: text});
}

// The rule sets, without making a session (GET /api/variants needs none).
export async function variantsList() {
  const json = await request('/api/variants');
  return /** @type {any[]} */ (json.variants || []);
}

// The stylesheet of these screens, added once.
export function useHistoryStyles() {
  if (document.querySelector('link[data-history-css]')) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = 'history.css';
  link.dataset.historyCss = 'true';
  document.head.append(link);
}

/**
 * A DOM element with attributes and children (strings become text).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {Record<string, any>} attrs @param {(Node|string)[]} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = String(value);
    else if (key === 'text') node.textContent = String(value);
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  node.append(...children);
  return node;
}

// A seat's name as a page shows it.
/** @param {any} seat @param {(key: string) => string} t */
export function seatName(seat, t) {
  if (!seat) return '?';
  if (seat.kind === 'SEAT_KIND_BOT') return seat.displayName || t('history.botName');
  return seat.displayName || (seat.kind === 'SEAT_KIND_GUEST' ? t('history.guestName') : seat.playerId || '?');
}
