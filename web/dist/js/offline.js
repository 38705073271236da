// The offline page (served by sw.js when a page cannot be fetched): its
// texts in the reader's language and a button to try the network again.

import {loadSettings} from './storage.js';
import {pickLanguage, setLanguage, t} from './strings.js';

document.documentElement.lang = setLanguage(pickLanguage(loadSettings().language, navigator.language));
for (const node of document.querySelectorAll('[data-t]')) {
  if (node instanceof HTMLElement) node.textContent = t(node.dataset.t);
}
document.title = t('learn.offline.title');
document.getElementById('offline-retry').addEventListener('click', () => location.reload());
