// The board's labels as a setting (issues 13 and 18): the standard square
// numbers, or the squares named the way the rule set's federation writes
// them in the move list (GET /api/variants `notation`): algebraic
// coordinates along the edges (Russian, Brazilian, Czech, Turkish), or the
// federation's own numbers in the squares (Italian, Spanish). Where the
// federation writes the standard numbers the setting changes nothing, so it
// is not offered. Pure.

/**
 * @typedef {{notation?: {style?: string, squareNames?: string[]}}} NotationVariant
 * @typedef {{showMoves?: boolean, showNumbers?: boolean, coordinates?: boolean}} LabelSettings
 */

// Whether the federation names squares differently from the standard numbers.
/** @param {NotationVariant|null|undefined} variant */
export function federationNamesDiffer(variant) {
  const notation = variant && variant.notation;
  if (!notation || !Array.isArray(notation.squareNames)) return false;
  if (notation.style === 'coordinates') return true;
  return notation.squareNames.some((name, i) => name !== String(i + 1));
}

// The text key of the setting's label for this rule set.
/** @param {NotationVariant|null|undefined} variant */
export function notationLabelKey(variant) {
  const style = variant && variant.notation && variant.notation.style;
  return style === 'coordinates' ? 'boardNotation.coordinates' : 'boardNotation.numbering';
}

// The board component's options from the saved settings (each on unless
// switched off: the board then reads like the move list).
/** @param {LabelSettings} settings @returns {import('./board_view.js').BoardOptions} */
export function boardOptions(settings) {
  return {
    showMoves: settings.showMoves !== false,
    showNumbers: settings.showNumbers !== false,
    coordinates: settings.coordinates !== false,
  };
}

// A move as the server writes it (standard numbers: "32-28", "28x19x10")
// written the federation's way ("c3-d4", "c3:e5:g7" in Russian; Italian
// numbers), when the setting is on and the federation's names differ;
// anything else unchanged.
/**
 * @param {string} move
 * @param {(NotationVariant & {notation?: {captureSeparator?: string}})|null|undefined} variant
 * @param {LabelSettings} settings
 */
export function moveInNotation(move, variant, settings) {
  if (settings.coordinates === false || !federationNamesDiffer(variant)) return move;
  const notation = /** @type {{squareNames: string[], captureSeparator?: string}} */ (variant && variant.notation);
  const parts = String(move).split(/([-x])/);
  if (parts.length < 3) return move;
  const capture = parts.includes('x');
  const names = [];
  for (let i = 0; i < parts.length; i += 2) {
    const name = /^\d+$/.test(parts[i]) ? notation.squareNames[Number(parts[i]) - 1] : undefined;
    if (!name) return move;
    names.push(name);
  }
  return names.join(capture ? notation.captureSeparator || 'x' : '-');
}
