// Service worker: keeps the web client's files so the app opens and shows
// its offline page without a network. Only this origin's static files are
// cached; /api and /ws always go to the network (game state is the
// server's, never a stale copy).
//
// Files are fetched from the network first (the gateway sends no-cache, so
// a new client is seen at once) and kept; without a network a page opened
// gets offline.html (playing needs the server), whose files are kept.

const CACHE = 'draughts-client-v1';
const OFFLINE_PAGE = 'offline.html';

// Fetched on install. Each on its own: one missing file does not stop the
// worker; files not listed are kept the first time they are used.
const CLIENT_FILES = [
  './', 'index.html', OFFLINE_PAGE, 'app.css', 'learn.css', 'favicon.svg', 'manifest.webmanifest',
  'icons/icon-192.png', 'icons/icon-512.png', 'icons/icon-maskable-512.png',
  'js/main.js', 'js/header.js', 'js/pwa.js', 'js/offline.js', 'js/api.js', 'js/storage.js',
  'js/strings.js', 'js/strings/core.js', 'js/strings/learn.js', 'js/strings/account.js', 'js/routes.js', 'js/variant_names.js',
  'js/account_api.js',
  'js/board.js', 'js/board_view.js', 'js/move_picker.js', 'js/geometry.js', 'js/fen.js',
  'js/game_page.js', 'js/game_socket.js', 'js/lessons.js', 'js/screens/learn.js', 'js/screens/rules.js',
];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE).then(async (cache) => {
      await cache.add(OFFLINE_PAGE);
      await Promise.allSettled(CLIENT_FILES.map((file) => cache.add(file)));
      await self.skipWaiting();
    }),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

/** @param {URL} url */
function isClientFile(url) {
  if (url.origin !== self.location.origin) return false;
  const path = url.pathname;
  return !(path.startsWith('/api/') || path === '/api' || path.startsWith('/ws/') || path === '/healthz');
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (!isClientFile(url)) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      try {
        const response = await fetch(request);
        if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
        return response;
      } catch {
        // Every page needs the server to play: a page opened offline says so.
        if (request.mode === 'navigate') return (await cache.match(OFFLINE_PAGE)) || Response.error();
        return (await cache.match(request, {ignoreSearch: true})) || Response.error();
      }
    })(),
  );
});
