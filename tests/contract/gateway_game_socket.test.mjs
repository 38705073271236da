// The hotseat game's REST bodies and its WebSocket (/ws/games/<id>,
// docs/WEB_PROTOCOL.md) from outside, as web/dist/js/api.js and
// game_socket.js use them: the real gateway and game_state binaries on a
// private redis-server. Every REST body and every frame received must be
// the protobuf JSON of its message in web_game.proto (SessionBody,
// CreatedGameBody, GameViewBody; the frame named by `type`): no field the
// message does not declare, no value of the wrong type. Client frames the
// message does not declare are refused with an error frame.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import protobuf from 'protobufjs';
import WebSocket from 'ws';
import { Cluster, freePort } from './lib/cluster.mjs';
import { repoRoot } from './lib/game_client.mjs';
import { checkJson } from './lib/server_frame.mjs';

const protoDir = path.join(repoRoot, 'proto');
const root = new protobuf.Root();
root.resolvePath = (origin, target) => (target.startsWith('google/protobuf/') ? target : path.join(protoDir, target));
root.loadSync('draughts/v1/web_game.proto');
root.resolveAll();
const type = (name) => root.lookupType(`draughts.v1.${name}`);
const frameTypes = {
  snapshot: type('GameSnapshotFrame'),
  event: type('GameEventFrame'),
  ack: type('GameAckFrame'),
  error: type('GameErrorFrame'),
  pong: type('GamePongFrame'),
};

// The checker itself must refuse what the gateway must never send.
test('the checker refuses unknown fields and wrong types', () => {
  assert.deepEqual(checkJson(frameTypes.ack, { type: 'ack', requestId: 'r1' }), []);
  assert.notDeepEqual(checkJson(frameTypes.ack, { type: 'ack', requestId: 'r1', extra: 1 }), []);
  assert.notDeepEqual(checkJson(frameTypes.ack, { type: 'ack', requestId: 5 }), []);
  assert.notDeepEqual(checkJson(frameTypes.snapshot, { type: 'snapshot', mustCapture: 'no' }), []);
  assert.notDeepEqual(checkJson(frameTypes.snapshot, { type: 'snapshot', legalMoves: {} }), []);
  assert.notDeepEqual(checkJson(type('SessionBody'), { playerId: 'g_x', kind: 'guest', sessionId: 's' }), []);
});

const cluster = new Cluster();
let gatewayPort;

const startService = (name, variable, args) => cluster.startServiceFromEnv(name, variable, args);

// A REST call whose 200 body must be `messageName`'s JSON.
async function rest(method, route, messageName, { cookie, body, key } = {}) {
  const headers = { Origin: `http://127.0.0.1:${gatewayPort}` };
  if (cookie) headers.Cookie = cookie;
  if (body) headers['Content-Type'] = 'application/json';
  if (key) headers['Idempotency-Key'] = key;
  const response = await fetch(`http://127.0.0.1:${gatewayPort}${route}`, {
    method, headers, body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  assert.equal(response.status, 200, `${method} ${route}: ${text}`);
  const parsed = JSON.parse(text);
  assert.deepEqual(checkJson(type(messageName), parsed), [], `${method} ${route} is not a ${messageName}: ${text.slice(0, 300)}`);
  return { parsed, response };
}

// A game socket that checks every frame against the message its type names.
class GameSocket {
  constructor(gameId, cookie) {
    this.frames = [];
    this.seq = 0;
    this.ws = new WebSocket(`ws://127.0.0.1:${gatewayPort}/ws/games/${gameId}`, {
      headers: { Cookie: cookie, Origin: `http://127.0.0.1:${gatewayPort}` },
    });
    this.ws.on('message', (data) => {
      const text = data.toString();
      const frame = JSON.parse(text);
      const messageType = frameTypes[frame.type];
      assert.ok(messageType, `a frame of unknown type: ${text.slice(0, 200)}`);
      assert.deepEqual(checkJson(messageType, frame), [], `not a ${messageType.name}: ${text.slice(0, 300)}`);
      this.frames.push(frame);
    });
    this.opened = new Promise((resolve, reject) => { this.ws.once('open', resolve); this.ws.once('error', reject); });
  }

  async waitFor(predicate, what, timeoutMs = 20000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms; last: ${JSON.stringify(this.frames.slice(-3)).slice(0, 600)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  // Sends `text` (raw) under a request id and resolves with its answer.
  async send(action) {
    const requestId = `r${++this.seq}`;
    this.ws.send(typeof action === 'string' ? action.replace('{', `{"requestId":"${requestId}",`) : JSON.stringify({ requestId, ...action }));
    return this.waitFor((f) => f.requestId === requestId && (f.type === 'ack' || f.type === 'error'), `answer to ${requestId}`);
  }

  lastSnapshot() { return this.frames.filter((f) => f.type === 'snapshot').at(-1); }
}

before(async () => {
  const redis = await cluster.startRedis();
  const gameState = await startService('game-state', 'DRAUGHTS_GAME_STATE_BIN', [`--redis=${redis}`, `--token-secret=ts-${randomUUID()}`]);
  const gateway = await startService('gateway', 'DRAUGHTS_GATEWAY_BIN', [
    `--redis=${redis}`, `--game-state=${gameState}`, `--rating=127.0.0.1:${await freePort()}`,
    `--web-root=${path.join(repoRoot, 'web/dist')}`]);
  gatewayPort = Number(gateway.split(':')[1]);
});

after(async () => {
  await cluster.stop();
});

test('a hotseat game over REST and /ws/games speaks only web_game.proto messages', async () => {
  const { parsed: session, response } = await rest('POST', '/api/session', 'SessionBody');
  assert.equal(session.kind, 'guest');
  assert.equal(session.guestName, session.displayName);
  const cookie = response.headers.get('set-cookie').split(';')[0];
  await rest('GET', '/api/session', 'SessionBody', { cookie });

  const { parsed: created } = await rest('POST', '/api/games', 'CreatedGameBody', {
    cookie, body: { variant: 'international', mode: 'hotseat' }, key: randomUUID(),
  });
  assert.ok(created.gameId && created.seats.white && created.seats.black);
  const { parsed: view } = await rest('GET', `/api/games/${created.gameId}`, 'GameViewBody', { cookie });
  assert.ok(view.legalMoves.length > 0);

  const socket = new GameSocket(created.gameId, cookie);
  await socket.opened;
  const first = await socket.waitFor((f) => f.type === 'snapshot', 'first snapshot');
  assert.deepEqual(Object.keys(first), ['type', 'game', 'legalMoves', 'mustCapture']);
  await socket.waitFor((f) => f.type === 'event' && f.event.gameCreated, 'the gameCreated event');

  // A move by the side to move, then its ack and a snapshot at the next ply.
  const ply = first.game.ply;
  const token = first.game.sideToMove === 'COLOR_BLACK' ? created.seats.black : created.seats.white;
  const moved = await socket.send({ action: 'move', token, move: first.legalMoves[0].notation, expectedPly: ply });
  assert.deepEqual(moved, { type: 'ack', requestId: moved.requestId });
  await socket.waitFor((f) => f.type === 'snapshot' && f.game.ply === ply + 1, 'the snapshot after the move');
  await socket.waitFor((f) => f.type === 'event' && f.event.movePlayed, 'the movePlayed event');

  // Ping.
  socket.ws.send('{"action":"ping"}');
  await socket.waitFor((f) => f.type === 'pong', 'pong');

  // Refused: an undeclared field, a wrong type, a stale ply. Nothing moves.
  const unknown = await socket.send({ action: 'ping', extra: 1 });
  assert.equal(unknown.type, 'error');
  assert.equal(unknown.error.code, 'INVALID_ARGUMENT');
  assert.match(unknown.error.message, /GameSocketClientFrame.*extra/);
  const wrongType = await socket.send('{"action":"move","token":7,"move":"1-2","expectedPly":1}');
  assert.equal(wrongType.error.code, 'INVALID_ARGUMENT');
  const stale = await socket.send({ action: 'resign', token, expectedPly: ply });
  assert.equal(stale.type, 'error');
  assert.equal(stale.error.code, 'ABORTED');
  assert.equal(socket.lastSnapshot().game.ply, ply + 1);

  // The game ends: a resignation, the ended snapshot has no legal moves.
  const next = socket.lastSnapshot();
  const resignToken = next.game.sideToMove === 'COLOR_BLACK' ? created.seats.black : created.seats.white;
  const resigned = await socket.send({ action: 'resign', token: resignToken, expectedPly: next.game.ply });
  assert.equal(resigned.type, 'ack');
  const ended = await socket.waitFor((f) => f.type === 'snapshot' && f.legalMoves.length === 0 && f.game.ply === next.game.ply, 'the ended snapshot');
  assert.equal(ended.mustCapture, false);
  await rest('GET', `/api/games/${created.gameId}`, 'GameViewBody', { cookie });
  socket.ws.terminate();
});
