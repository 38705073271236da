// The header every page shares: links to the tutorial and to the rules of
// the rule set in view, and the language switch (kept with the settings;
// the page reloads in the chosen language).

import {SESSION_CHANGED, currentSession, isPerson} from './account_api.js';
import {loadSettings, saveSettings} from './storage.js';
import {language, languages, pickLanguage, setLanguage, t} from './strings.js';

const settings = loadSettings();
setLanguage(pickLanguage(settings.language, navigator.language));

// The rule set on screen: a game's, a tutorial's or rules page's, else the one last chosen.
function variantInView() {
  const hash = /^#\/(?:learn|rules)\/([\w-]+)$/.exec(location.hash);
  if (hash) return hash[1];
  const shown = document.querySelector('main:not([hidden])[data-variant], main:not([hidden]) [data-variant]');
  if (shown instanceof HTMLElement && shown.dataset.variant) return shown.dataset.variant;
  return loadSettings().variant || '';
}

function updateLinks() {
  const variant = variantInView();
  const rules = document.getElementById('nav-rules');
  const learn = document.getElementById('nav-learn');
  if (rules instanceof HTMLAnchorElement) rules.href = variant ? `#/rules/${variant}` : '#/rules';
  if (learn instanceof HTMLAnchorElement) learn.href = '#/learn';
}

// The account link names who is playing: the account's name, else "Guest".
/** @param {import('./account_api.js').SessionInfo|null} session */
function showSession(session) {
  const name = document.getElementById('nav-account-name');
  const prefix = document.getElementById('nav-account-prefix');
  const link = document.getElementById('nav-account');
  if (!name || !prefix || !link) return;
  const person = isPerson(session);
  prefix.textContent = t('account.nav.account', {name: ''});
  name.textContent = person ? session.displayName || '' : t('account.nav.guest');
  link.dataset.kind = person ? 'person' : 'guest';
}

function init() {
  const nav = document.getElementById('top-nav');
  if (nav) nav.setAttribute('aria-label', t('learn.nav.main'));
  document.title = t('title');
  const select = document.getElementById('language');
  if (select instanceof HTMLSelectElement) {
    select.replaceChildren(
      ...languages.map((code) => {
        const option = document.createElement('option');
        option.value = code;
        option.lang = code;
        option.textContent = t(`learn.languageNames.${code}`);
        return option;
      }),
    );
    select.value = language();
    select.addEventListener('change', () => {
      const current = loadSettings();
      current.language = select.value;
      saveSettings(current);
      location.reload();
    });
  }
  for (const id of ['nav-rules', 'nav-learn']) {
    const link = document.getElementById(id);
    // Computed when followed: the game on screen may have changed since.
    if (link) link.addEventListener('click', updateLinks);
  }
  window.addEventListener('hashchange', updateLinks);
  updateLinks();
  window.addEventListener(SESSION_CHANGED, (event) => showSession(/** @type {CustomEvent} */ (event).detail));
  showSession(null);
  currentSession().then(showSession, () => showSession(null));
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
else init();
