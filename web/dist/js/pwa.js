// Installable app: registers the service worker (sw.js), which keeps the
// client's files for offline use. The API and the WebSocket always go to the network.

if ('serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('sw.js', {scope: './'}).catch(() => {
      // No worker (plain http off localhost, private mode): the page works without it.
    });
  });
}
