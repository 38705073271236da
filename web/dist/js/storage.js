// What survives a reload: the settings and the game in progress (its id and
// the seats' secret tokens, which the server gives only once).

const SETTINGS_KEY = 'draughts.settings';
const GAME_KEY = 'draughts.game';

/**
 * @typedef {{variant: string, autoFlip: boolean, flipped: boolean, showMoves: boolean,
 *            showNumbers: boolean, coordinates?: boolean, language?: string}} Settings
 */

/** @type {Settings} */
const defaultSettings = {variant: 'international', autoFlip: true, flipped: false, showMoves: true, showNumbers: true, coordinates: true};

function read(key) {
  try {
    const value = JSON.parse(localStorage.getItem(key));
    return value && typeof value === 'object' ? value : null;
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private browsing or a full storage: the game still plays, it just will not resume.
  }
}

/** @returns {Settings} */
export function loadSettings() {
  return {...defaultSettings, ...(read(SETTINGS_KEY) || {})};
}

/** @param {Settings} settings */
export function saveSettings(settings) {
  write(SETTINGS_KEY, settings);
}

// -> {gameId, variant, seats: {white, black}} or null.
export function loadGame() {
  const game = read(GAME_KEY);
  if (!game || typeof game.gameId !== 'string' || !game.seats) return null;
  return game;
}

export function saveGame(game) {
  write(GAME_KEY, game);
}

export function forgetGame() {
  write(GAME_KEY, null);
}
