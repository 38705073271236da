// Instants on the wire (protobuf Timestamp JSON, RFC 3339) as milliseconds,
// and the server's clock as this browser sees it: deadlines are the server's
// instants, so a countdown subtracts the server's "now", not the browser's.

/** @param {string|undefined|null} iso @returns {number} NaN when absent or unreadable */
export function instantMs(iso) {
  if (!iso) return NaN;
  const ms = Date.parse(String(iso));
  return Number.isFinite(ms) ? ms : NaN;
}

// protobuf Duration JSON ("60s", "0.5s", "1.250s") as milliseconds; NaN if unreadable.
/** @param {string|undefined|null} text @returns {number} */
export function durationMs(text) {
  const m = /^(-?\d+(?:\.\d+)?)s$/.exec(String(text || ''));
  return m ? Math.round(Number(m[1]) * 1000) : NaN;
}

// The offset to add to Date.now() to get the server's time. It is learned
// from frames that carry the server's time; 0 until one does.
export class ServerClock {
  /** @param {() => number} [now] */
  constructor(now = () => Date.now()) {
    this.localNow = now;
    this.offsetMs = 0;
  }

  // serverTime: a Timestamp JSON sent by the server "now" (a frame's serverTime).
  /** @param {string|undefined} serverTime */
  learn(serverTime) {
    const server = instantMs(serverTime);
    if (Number.isFinite(server)) this.offsetMs = server - this.localNow();
  }

  now() {
    return this.localNow() + this.offsetMs;
  }
}

// "0:07", "1:00", "4:59": whole seconds rounded up, so "0:00" shows only at the end.
/** @param {number} ms */
export function formatCountdown(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}
