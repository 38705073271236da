// Start page (the lobby) and routing: "#/game/<id>" shows a game, a
// registered screen (routes.js) its address, anything else the lobby. A game
// kept in storage is resumed after a reload.

import {SESSION_CHANGED} from './account_api.js';
import {ApiError, createGame, createSession, getGame, listVariants} from './api.js';
import {mountLobby} from './screens/lobby.js';
import {GamePage} from './game_page.js';
import {forgetGame, loadGame, loadSettings, saveGame, saveSettings} from './storage.js';
import {routes} from './routes.js';
import {setLanguage, t} from './strings.js';
import {localizeVariants} from './variant_names.js';

const startView = document.getElementById('start-view');
const gameView = document.getElementById('game-view');
const startError = document.getElementById('start-error');
const variantSelect = /** @type {HTMLSelectElement} */ (document.getElementById('variant'));
const startButton = /** @type {HTMLButtonElement} */ (document.getElementById('start'));
const resumeButton = document.getElementById('resume');
const screenView = document.getElementById('screen-view');
const lobbyContainer = document.getElementById('lobby');

let variants = [];
let page = null;
/** @type {ReturnType<typeof mountLobby> | null} */
let lobby = null;
let isPerson = false;
// Logging in, out or registering (the account screen) changes what the lobby offers.
window.addEventListener(SESSION_CHANGED, (event) => {
  const session = /** @type {CustomEvent} */ (event).detail;
  isPerson = !!session && session.kind === 'person';
});
/** @type {import('./routes.js').MountedScreen | null} */
let screen = null;
const settings = loadSettings();

function translateStatic() {
  document.documentElement.lang = setLanguage(settings.language || navigator.language);
  for (const node of document.querySelectorAll('[data-t]')) {
    if (node instanceof HTMLElement) node.textContent = t(node.dataset.t);
  }
}

function gameIdFromHash() {
  const m = /^#\/game\/([^/?#]+)$/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : '';
}

function showStart(message = '') {
  if (page) {
    page.close();
    page = null;
  }
  gameView.hidden = true;
  startView.hidden = false;
  startError.textContent = message;
  const saved = loadGame();
  resumeButton.hidden = !saved;
  if (lobby) lobby.refresh();
  else lobby = mountLobby(lobbyContainer, {variants, variantSelect, isPerson: () => isPerson});
}

function hideStart() {
  if (lobby) lobby.close();
  lobby = null;
  startView.hidden = true;
}

async function showGame(gameId) {
  const saved = loadGame();
  const mine = saved && saved.gameId === gameId ? saved : {gameId, seats: {}};
  hideStart();
  let initial;
  try {
    initial = await getGame(gameId);
  } catch (e) {
    if (e instanceof ApiError && (e.code === 'NOT_FOUND' || e.status === 404)) {
      if (saved && saved.gameId === gameId) forgetGame();
      location.hash = '';
      showStart(t('gameGone'));
    } else {
      showStart(t('serverError', {message: e.message}));
    }
    return;
  }
  const variant = variants.find((v) => v.id === initial.game.variant);
  if (!variant) {
    showStart(t('serverError', {message: `unknown rule set ${initial.game.variant}`}));
    return;
  }
  if (page) page.close();
  page = new GamePage(gameView, {
    variant,
    saved: mine,
    settings,
    saveSettings,
    onNewGame: () => {
      location.hash = '';
    },
  });
  page.start(initial);
}

function closeScreen() {
  if (screen) screen.close();
  screen = null;
  screenView.replaceChildren();
  screenView.hidden = true;
}

// A registered screen for the address, if any, replaces the other views.
async function showRegisteredScreen() {
  for (const candidate of routes) {
    const match = candidate.pattern.exec(location.hash);
    if (!match) continue;
    if (page) {
      page.close();
      page = null;
    }
    closeScreen();
    hideStart();
    gameView.hidden = true;
    screenView.hidden = false;
    const module = await candidate.load();
    screen = await module.mount(screenView, match);
    return true;
  }
  return false;
}

async function route() {
  closeScreen();
  if (await showRegisteredScreen()) return;
  const id = gameIdFromHash();
  if (id) {
    if (!page || page.gameId !== id) await showGame(id);
  } else {
    showStart();
  }
}

async function startGame() {
  const variant = variantSelect.value;
  settings.variant = variant;
  saveSettings(settings);
  startError.textContent = '';
  startButton.disabled = true;
  try {
    const created = await createGame(variant, 'hotseat');
    saveGame({gameId: created.gameId, variant, seats: created.seats || {}});
    location.hash = `#/game/${encodeURIComponent(created.gameId)}`;
  } catch (e) {
    startError.textContent = t('serverError', {message: e.message});
  } finally {
    startButton.disabled = false;
  }
}

async function init() {
  translateStatic();
  try {
    variants = localizeVariants(await listVariants());
    // The session's kind: rated tables are offered to accounts only.
    const session = await createSession();
    isPerson = session.kind === 'person';
  } catch (e) {
    startView.hidden = false;
    startError.textContent = t('noVariants', {message: e.message});
    return;
  }
  variantSelect.replaceChildren(
    ...variants.map((v) => {
      const option = document.createElement('option');
      option.value = v.id;
      option.textContent = v.name;
      return option;
    }),
  );
  if (variants.some((v) => v.id === settings.variant)) variantSelect.value = settings.variant;
  variantSelect.addEventListener('change', () => {
    settings.variant = variantSelect.value;
    saveSettings(settings);
  });
  startButton.addEventListener('click', startGame);
  resumeButton.addEventListener('click', () => {
    const saved = loadGame();
    if (saved) location.hash = `#/game/${encodeURIComponent(saved.gameId)}`;
  });
  window.addEventListener('hashchange', route);
  // A reload with no game in the address resumes the game kept in storage
  // (not on another screen's address: a rules page stays a rules page).
  const saved = loadGame();
  const onScreen = routes.some((r) => r.pattern.test(location.hash));
  if (!gameIdFromHash() && saved && !onScreen) {
    history.replaceState(null, '', `#/game/${encodeURIComponent(saved.gameId)}`);
  }
  await route();
  document.body.dataset.ready = 'true';
}

init();
