// The game's WebSocket (/ws/games/{id}): frames in, actions out, and a
// reconnect that resumes after the last event seen (?after=<event id>).

const PING_EVERY_MS = 25000;
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 8000;

export class GameSocket {
  // handlers: {onFrame(frame), onState('open'|'connecting'|'lost'), beforeRetry() -> Promise}
  constructor(gameId, handlers) {
    this.gameId = gameId;
    this.handlers = handlers;
    this.lastEventId = '';
    this.nextRequest = 1;
    this.retryMs = RETRY_MIN_MS;
    this.closed = false;
    this.finished = false;
    this.ws = null;
    this.timer = null;
  }

  open() {
    if (this.closed) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const after = this.lastEventId ? `?after=${encodeURIComponent(this.lastEventId)}` : '';
    const ws = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(this.gameId)}${after}`);
    this.ws = ws;
    this.handlers.onState('connecting');
    let opened = false;
    ws.addEventListener('open', () => {
      opened = true;
      this.retryMs = RETRY_MIN_MS;
      this.handlers.onState('open');
      this.ping = setInterval(() => this.sendRaw({action: 'ping'}), PING_EVERY_MS);
    });
    ws.addEventListener('message', (e) => this.receive(e.data));
    ws.addEventListener('close', () => {
      clearInterval(this.ping);
      if (this.ws !== ws || this.closed) return;
      this.ws = null;
      // A finished game's stream ends; there is nothing more to wait for.
      if (this.finished) return;
      this.handlers.onState('lost');
      const delay = this.retryMs;
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
      // Refused before opening: the session may be gone (the REST call makes a new one).
      const ready = opened || !this.handlers.beforeRetry ? Promise.resolve() : this.handlers.beforeRetry();
      ready.catch(() => {}).then(() => {
        if (!this.closed) this.timer = setTimeout(() => this.open(), delay);
      });
    });
  }

  receive(data) {
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    if (!frame || typeof frame !== 'object') return;
    if (frame.type === 'event' && frame.event && frame.event.eventId) {
      // A replay after connecting may repeat older events: only move forward.
      if (newerId(frame.event.eventId, this.lastEventId)) this.lastEventId = frame.event.eventId;
      if (frame.event.gameEnded) this.finished = true;
    }
    if (frame.type === 'error' && !frame.requestId && frame.error && frame.error.code === 'FAILED_PRECONDITION') {
      // The event we would resume after is no longer kept: start again from the game's start.
      this.lastEventId = '';
      if (this.ws) this.ws.close(1000);
      this.ws = null;
      this.timer = setTimeout(() => this.open(), RETRY_MIN_MS);
    }
    if (frame.type === 'snapshot' && frame.game) {
      if (frame.game.lastEventId && newerId(frame.game.lastEventId, this.lastEventId)) {
        this.lastEventId = frame.game.lastEventId;
      }
      const result = frame.game.result || 'GAME_RESULT_ONGOING';
      this.finished = result !== 'GAME_RESULT_ONGOING' && result !== 'GAME_RESULT_UNSPECIFIED';
    }
    this.handlers.onFrame(frame);
  }

  // Sends an action ("move", "resign", ...) and returns its requestId, or '' when offline.
  send(action, fields) {
    const requestId = `r${this.nextRequest++}`;
    return this.sendRaw({requestId, action, ...fields}) ? requestId : '';
  }

  sendRaw(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.ping);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }
}

// Stream ids are "<ms>-<seq>": compare them as number pairs, not as strings.
export function newerId(a, b) {
  if (!b) return Boolean(a);
  const [am, as] = String(a).split('-').map(Number);
  const [bm, bs] = String(b).split('-').map(Number);
  return am > bm || (am === bm && (as || 0) > (bs || 0));
}
