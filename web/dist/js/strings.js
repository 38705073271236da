// Every text the client shows comes from t(key). The tables live in
// strings/<area>.js (one file per area of the client, so areas are written
// independently); each exports `en` and `fr` with the same keys, merged here.
// Placeholders are written {name} and filled by t().

import * as core from './strings/core.js';
import * as lobby from './strings/lobby.js';

// One line per area: add yours here.
const areas = [core, lobby];

/** @param {'en'|'fr'} language */
function merged(language) {
  return Object.assign({}, ...areas.map((area) => area[language] || {}));
}

const en = merged('en');
const fr = merged('fr');

const tables = {en, fr};
let current = en;

// Picks the table for a language code ("en", "fr-FR"); unknown ones fall back to English.
/** @param {string} code */
export function setLanguage(code) {
  current = tables[String(code || '').slice(0, 2).toLowerCase()] || en;
  return current === en ? 'en' : String(code).slice(0, 2).toLowerCase();
}

// The text for a key ("toMove" or "reason.RESULT_REASON_NO_PIECES"), placeholders filled.
/** @param {string} key @param {Record<string, string|number>} params @returns {string} */
export function t(key, params = {}) {
  const lookup = (table) => key.split('.').reduce((node, part) => (node == null ? undefined : node[part]), table);
  let value = lookup(current);
  if (typeof value !== 'string') value = lookup(en);
  if (typeof value !== 'string') value = key;
  return value.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}
