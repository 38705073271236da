// The gateway's REST calls (docs/WEB_PROTOCOL.md). Every error becomes an
// ApiError carrying the gRPC code name and the server's message.

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

// A fresh Idempotency-Key: one per user action, sent again with each retry
// of that action so the server makes its game (or anything else) once.
// randomUUID needs a secure context (https or localhost); a page served over
// plain http elsewhere falls back to 128 bits from getRandomValues.
export function newIdempotencyKey() {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function call(method, path, body, idempotencyKey) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError('UNAVAILABLE', `cannot reach the server (${e.message})`, 0);
  }
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = null;
  }
  if (!response.ok) {
    const err = json && json.error ? json.error : {};
    throw new ApiError(err.code || `HTTP_${response.status}`, err.message || text || response.statusText, response.status);
  }
  if (json === null) throw new ApiError('INTERNAL', 'the server answered something that is not JSON', response.status);
  return json;
}

// The session cookie is HttpOnly: the page cannot see it, so it remembers
// that it made one (a first visit then skips a refused request).
const SESSION_MADE_KEY = 'draughts.sessionMade';

export async function createSession() {
  const session = await call('POST', '/api/session');
  try {
    localStorage.setItem(SESSION_MADE_KEY, '1');
  } catch {
    // No storage: the 401 fallback below still works.
  }
  return session;
}

function sessionMade() {
  try {
    return localStorage.getItem(SESSION_MADE_KEY) === '1';
  } catch {
    return false;
  }
}

// Runs `fn` with a session: makes one first on a first visit, and again if
// the server no longer knows it (401), then runs `fn` once more.
export async function withSession(fn) {
  if (!sessionMade()) await createSession();
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 401) throw e;
    await createSession();
    return fn();
  }
}

export function listVariants() {
  return withSession(() => call('GET', '/api/variants')).then((r) => r.variants || []);
}

// Runs `fn` again while the server is out of reach or unavailable (503),
// a few times with a growing pause; only for calls that are safe to repeat.
export async function withRetries(fn, attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      const retriable = e instanceof ApiError && e.code === 'UNAVAILABLE';
      if (!retriable || attempt >= attempts) throw e;
      await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
    }
  }
}

// -> {gameId, seats: {white, black}}. One key for this click, reused by
// every retry (a lost answer, a new session after a 401), so a retry returns
// the same game instead of making a second one.
export function createGame(variant, mode) {
  const key = newIdempotencyKey();
  return withRetries(() => withSession(() => call('POST', '/api/games', {variant, mode}, key)));
}

// -> {game, legalMoves, mustCapture}
export function getGame(gameId) {
  return withSession(() => call('GET', `/api/games/${encodeURIComponent(gameId)}`));
}
