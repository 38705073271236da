// The gateway's REST calls (docs/WEB_PROTOCOL.md). Every error becomes an
// ApiError carrying the gRPC code name and the server's message.

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

async function call(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : {'Content-Type': 'application/json'},
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

export function createSession() {
  return call('POST', '/api/session');
}

// Runs `fn`; if the browser has no (or an expired) session, makes one and runs it again.
async function withSession(fn) {
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

// -> {gameId, seats: {white, black}}
export function createGame(variant, mode) {
  return withSession(() => call('POST', '/api/games', {variant, mode}));
}

// -> {game, legalMoves, mustCapture}
export function getGame(gameId) {
  return withSession(() => call('GET', `/api/games/${encodeURIComponent(gameId)}`));
}
