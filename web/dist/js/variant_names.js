// The server names rule sets and sides in English (GET /api/variants); the
// page shows them in the reader's language from the tables (learn area),
// keeping the server's name for a rule set the tables do not know yet.

import {has, t} from './strings.js';

/** @param {string} english */
function colorKey(english) {
  return `learn.colors.${String(english).toLowerCase()}`;
}

// A copy of a GET /api/variants entry with its names in the current language.
/** @template {{id: string, name: string, colorNames?: {white?: string, black?: string}}} V @param {V} variant @returns {V} */
export function localizeVariant(variant) {
  const nameKey = `learn.variants.${variant.id}`;
  const names = variant.colorNames || {};
  const color = (/** @type {string|undefined} */ english) => (english && has(colorKey(english)) ? t(colorKey(english)) : english);
  return {
    ...variant,
    englishColorNames: {...names},
    name: has(nameKey) ? t(nameKey) : variant.name,
    colorNames: {white: color(names.white), black: color(names.black)},
  };
}

/** @template {{id: string, name: string}} V @param {V[]} variants @returns {V[]} */
export function localizeVariants(variants) {
  return variants.map((v) => localizeVariant(v));
}
