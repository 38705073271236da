// Small DOM and formatting helpers of the lobby screens.

import {t} from '../strings.js';

/**
 * An element with properties (value, hidden, checked...), attributes
 * (names with a dash, role) and data-* (dataset) set, and its children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [props]
 * @param {...(Node | string)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (name === 'dataset') Object.assign(node.dataset, value);
    else if (name.includes('-') || name === 'role') node.setAttribute(name, String(value));
    else node[name] = value;
  }
  node.append(...children);
  return node;
}

// Seconds of a protobuf JSON duration ("60s", "0s"); 0 when absent.
/** @param {string | null | undefined} duration */
export function durationSeconds(duration) {
  const seconds = Number.parseFloat(String(duration || '0s'));
  return Number.isFinite(seconds) ? seconds : 0;
}

/** @param {string | null | undefined} duration */
export function timeLabel(duration) {
  const seconds = durationSeconds(duration);
  if (seconds === 0) return t('noLimit');
  if (seconds < 60) return t('seconds', {n: seconds});
  return t('minutes', {n: seconds / 60});
}

// The times per move matchmaking offers for a rule set (its contract:
// 10x10 and 12x12 boards 30 s to 5 min, 1 min by default; smaller boards
// none, 30 s or 60 s, none by default).
/** @param {{board: {rows: number}}} variant */
export function timeChoices(variant) {
  if (variant.board.rows >= 10) return {choices: ['30s', '60s', '120s', '300s'], byDefault: '60s'};
  return {choices: ['0s', '30s', '60s'], byDefault: '0s'};
}
