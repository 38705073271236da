// Every text the client shows comes from t(key). The tables live in
// strings/<area>.js (one file per area of the client, so areas are written
// independently); each exports `en` and `fr` with the same keys, merged here.
// Placeholders are written {name} and filled by t().

import * as account from './strings/account.js';
import * as core from './strings/core.js';
import * as history from './strings/history.js';
import * as learn from './strings/learn.js';
import * as lobby from './strings/lobby.js';
import * as table from './strings/table.js';

// One line per area: add yours here.
const areas = [account, core, history, learn, lobby, table];

/** The languages the client speaks, by their code. */
export const languages = /** @type {const} */ (['en', 'fr']);

/** @param {'en'|'fr'} language */
function merged(language) {
  return Object.assign({}, ...areas.map((area) => area[language] || {}));
}

const en = merged('en');
const fr = merged('fr');

/** @type {Record<string, any>} */
const tables = {en, fr};
let current = en;
let currentCode = 'en';

// The language to show for a code ("en", "fr-FR", "fr-CA"): a saved choice
// or the browser's languages in order; unknown ones fall back to English.
/** @param {...(string|undefined|null)} codes @returns {'en'|'fr'} */
export function pickLanguage(...codes) {
  for (const code of codes) {
    const short = String(code || '').slice(0, 2).toLowerCase();
    if (short === 'en' || short === 'fr') return short;
  }
  return 'en';
}

// Picks the table for a language code ("en", "fr-FR"); unknown ones fall back to English.
/** @param {string} code */
export function setLanguage(code) {
  currentCode = pickLanguage(code);
  current = tables[currentCode];
  return currentCode;
}

/** The code of the language shown now. */
export function language() {
  return currentCode;
}

/** @param {any} table @param {string} key */
function lookup(table, key) {
  return key.split('.').reduce((node, part) => (node == null ? undefined : node[part]), table);
}

// The text for a key ("toMove" or "reason.RESULT_REASON_NO_PIECES"), placeholders filled.
/** @param {string} key @param {Record<string, string|number>} params @returns {string} */
export function t(key, params = {}) {
  let value = lookup(current, key);
  if (typeof value !== 'string') value = lookup(en, key);
  if (typeof value !== 'string') value = key;
  return value.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// A list of texts under a key (a rules page's items), in the current language.
/** @param {string} key @returns {string[]} */
export function tList(key) {
  let value = lookup(current, key);
  if (!Array.isArray(value)) value = lookup(en, key);
  return Array.isArray(value) ? value.map(String) : [];
}

// Whether a key has a text (lessons and pages skip optional parts).
/** @param {string} key */
export function has(key) {
  return lookup(en, key) !== undefined;
}
