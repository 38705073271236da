// Screens beyond the start page and the game page: a hash pattern and the
// module that shows it. Each screen module exports
//   mount(container: HTMLElement, match: RegExpExecArray): {close(): void}
// builds its own DOM inside `container` and takes its texts from t().
// One line per screen: add yours here.

/** @typedef {{close(): void}} MountedScreen */
/** @typedef {{mount(container: HTMLElement, match: RegExpExecArray): MountedScreen | Promise<MountedScreen>}} ScreenModule */
/** @typedef {{pattern: RegExp, load: () => Promise<ScreenModule>}} Route */

/** @type {Route[]} */
export const routes = [
  {pattern: /^#\/learn(?:\/([\w-]+))?$/, load: () => import('./screens/learn.js')},
  {pattern: /^#\/rules(?:\/([\w-]+))?$/, load: () => import('./screens/rules.js')},
  {pattern: /^#\/join\/([A-Za-z0-9_-]+)$/, load: () => import('./screens/lobby_join.js')},
  {pattern: /^#\/leaderboard(?:\/([a-z0-9_-]+)(?:\/(\d{4}-\d{2}))?)?$/, load: () => import('./screens/leaderboard.js')},
  {pattern: /^#\/player\/([A-Za-z0-9_-]{1,64})$/, load: () => import('./screens/player.js')},
  {pattern: /^#\/replay(?:\/([A-Za-z0-9_-]{1,64}))?$/, load: () => import('./screens/replay.js')},
  {pattern: /^#\/table\/([^/?#]+)$/, load: () => import('./screens/table.js')},
  {pattern: /^#\/account$/, load: () => import('./screens/account.js')},
];
