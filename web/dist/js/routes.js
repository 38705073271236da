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
  {pattern: /^#\/join\/([A-Za-z0-9_-]+)$/, load: () => import('./screens/lobby_join.js')},
];
