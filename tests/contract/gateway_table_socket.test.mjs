// The gateway's table WebSocket (/ws/tables/<id>, docs/WEB_PROTOCOL.md) from
// outside, as a browser would use it with a plain WebSocket client (`ws`):
// the real gateway, matchmaking, game_state, clock, chat and bot binaries on
// a private redis-server. Two players and a spectator at one private table:
// every frame must parse as web_socket.proto's ServerFrame; moves, draw
// offers, resignation, rematch (colours swapped), chat, presence and resume
// flow as documented; bad frames, floods and oversized messages are refused
// and change nothing; and no byte the opponent or the spectator receives
// holds a session id, a seat token, the password or the invite code.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import WebSocket from 'ws';
import { Cluster, freePort } from './lib/cluster.mjs';
import { repoRoot } from './lib/game_client.mjs';
import { ServerFrame, checkJson } from './lib/server_frame.mjs';

const protoDir = path.join(repoRoot, 'proto');
const v1 = grpc.loadPackageDefinition(protoLoader.loadSync(
  ['draughts/v1/matchmaking.proto', 'draughts/v1/game.proto'], {
    includeDirs: [protoDir], keepCase: true, enums: String, longs: String, defaults: true, oneofs: true,
  })).draughts.v1;

const cluster = new Cluster();
let gatewayPort;
let matchmaking;
let games;

const startService = (name, variable, args) => cluster.startServiceFromEnv(name, variable, args);

function call(stub, method, request) {
  return new Promise((resolve, reject) => {
    stub[method](request, { deadline: Date.now() + 15000 }, (error, response) => (error ? reject(error) : resolve(response)));
  });
}

async function newSession() {
  const response = await fetch(`http://127.0.0.1:${gatewayPort}/api/session`, { method: 'POST' });
  assert.equal(response.status, 200);
  const body = await response.json();
  const cookie = response.headers.get('set-cookie').split(';')[0];
  return { ...body, cookie, sessionId: cookie.split('=')[1] };
}

const seatOf = (session) => ({ kind: 'SEAT_KIND_GUEST', player_id: session.playerId, display_name: session.displayName });

// The snapshot a frame carries: a snapshot frame's, or the one riding
// beside an event (snapshotAfter).
const snapshotOf = (frame) => frame.snapshot ?? frame.snapshotAfter;

// A table socket that keeps every frame (parsed) and every byte received.
// It asks for snapshots inside events (?snapshotAfter=1) as the web client
// does, unless told not to, as a page loaded before that existed.
class Client {
  constructor(name, session, { snapshotAfter = true } = {}) {
    this.name = name;
    this.session = session;
    this.snapshotAfter = snapshotAfter;
    this.frames = [];
    this.raw = [];
    this.seq = 0;
  }

  open(query = '', headers = {}) {
    if (this.snapshotAfter) query = query ? `?snapshotAfter=1&${query.slice(1)}` : '?snapshotAfter=1';
    this.ws = new WebSocket(`ws://127.0.0.1:${gatewayPort}/ws/tables/${this.tableId}${query}`, {
      headers: { Cookie: this.session.cookie, Origin: `http://127.0.0.1:${gatewayPort}`, ...headers },
    });
    this.closed = new Promise((resolve) => this.ws.on('close', (code) => resolve(code)));
    this.ws.on('message', (data) => {
      const text = data.toString();
      this.raw.push(text);
      const frame = JSON.parse(text);
      const problems = checkJson(ServerFrame, frame);
      assert.deepEqual(problems, [], `${this.name} got a frame that is not a ServerFrame: ${text.slice(0, 300)}`);
      this.frames.push(frame);
    });
    return new Promise((resolve, reject) => {
      this.ws.once('open', resolve);
      this.ws.once('unexpected-response', (request, response) => reject(Object.assign(new Error(`HTTP ${response.statusCode}`), { status: response.statusCode })));
      this.ws.once('error', reject);
    });
  }

  async waitFor(predicate, what, timeoutMs = 20000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) {
        throw new Error(`${this.name}: no ${what} within ${timeoutMs} ms; last frames: ${this.frames.slice(-5).map((f) => JSON.stringify(f).slice(0, 200)).join('\n')}`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  // Sends an action and resolves with its ack or error frame.
  async act(action) {
    const requestId = `${this.name}-${++this.seq}`;
    this.ws.send(JSON.stringify({ requestId, ...action }));
    return this.waitFor((f) => f.requestId === requestId && (f.ack || f.error), `answer to ${requestId}`);
  }

  last(kind) {
    for (let i = this.frames.length - 1; i >= 0; --i) if (this.frames[i][kind]) return this.frames[i][kind];
    return undefined;
  }

  snapshot() {
    for (let i = this.frames.length - 1; i >= 0; --i) {
      const snapshot = snapshotOf(this.frames[i]);
      if (snapshot) return snapshot;
    }
    return undefined;
  }
  moveEvents() { return this.frames.filter((f) => f.gameEvent?.movePlayed).map((f) => f.gameEvent); }
}

const password = `Pa55-${randomUUID()}`;
let alice;
let bob;
let carol;
let tableId;
let inviteCode;

before(async () => {
  const redis = await cluster.startRedis();
  const tokenSecret = `ts-${randomUUID()}`;
  const gameState = await startService('game-state', 'DRAUGHTS_GAME_STATE_BIN', [`--redis=${redis}`, `--token-secret=${tokenSecret}`]);
  const mm = await startService('matchmaking', 'DRAUGHTS_MATCHMAKING_BIN', [
    `--redis=${redis}`, `--game-state=${gameState}`, '--token-secret=table-socket-mm-secret', '--password-memlimit-kib=64',
    '--allow-one-second-moves']);
  const clock = await startService('clock', 'DRAUGHTS_CLOCK_BIN', [`--redis=${redis}`, `--game-state=${gameState}`, '--heartbeat-interval=1s']);
  const chat = await startService('chat', 'DRAUGHTS_CHAT_BIN', [`--redis=${redis}`, `--game-state=${gameState}`, `--matchmaking=${mm}`]);
  await startService('bot', 'DRAUGHTS_BOT_BIN', [`--redis=${redis}`, `--game-state=${gameState}`]);
  const gateway = await startService('gateway', 'DRAUGHTS_GATEWAY_BIN', [
    `--redis=${redis}`, `--game-state=${gameState}`, `--matchmaking=${mm}`, `--clock=${clock}`, `--chat=${chat}`,
    `--rating=127.0.0.1:${await freePort()}`, `--web-root=${path.join(repoRoot, 'web/dist')}`]);
  gatewayPort = Number(gateway.split(':')[1]);
  matchmaking = new v1.MatchmakingService(mm, grpc.credentials.createInsecure());
  games = new v1.GameService(gameState, grpc.credentials.createInsecure());

  alice = new Client('alice', await newSession());
  bob = new Client('bob', await newSession());
  carol = new Client('carol', await newSession(), { snapshotAfter: false });
  const created = await call(matchmaking, 'CreateTable', {
    idempotency_key: randomUUID(), requester: seatOf(alice.session), variant: 'international', password,
  });
  tableId = created.table.table_id;
  inviteCode = created.table.invite_code;
  await call(matchmaking, 'JoinTable', { idempotency_key: randomUUID(), requester: seatOf(bob.session), table_id: tableId, password });
  await call(matchmaking, 'StartGame', { idempotency_key: randomUUID(), requester: seatOf(alice.session), table_id: tableId });
  for (const client of [alice, bob, carol]) {
    client.tableId = tableId;
    await client.open();
  }
});

after(async () => {
  // Carol's socket stays open: the gateway's SIGTERM closes it with 1001
  // (going away) and exits 0 (cluster.stop checks the exit).
  for (const client of [alice, bob]) client?.ws?.terminate();
  const open = carol?.ws?.readyState === WebSocket.OPEN;
  await cluster.stop();
  if (open) assert.equal(await carol.closed, 1001);
});

const players = () => [alice, bob];
// The player whose turn it is (their snapshot lists legal moves).
const mover = () => players().find((p) => p.snapshot()?.legalMoves.length > 0);
const waiting = () => players().find((p) => p !== mover());

// What an action could change (presence events also bump the version, so
// the version itself is not compared).
async function gameState() {
  const { game } = await call(games, 'GetGame', { game_id: alice.snapshot().game.gameId });
  return {
    ply: game.ply, fen: game.fen, moves: game.moves, result: game.result,
    drawOfferedBy: game.draw_offered_by,
  };
}

async function everyoneAtPly(ply) {
  for (const client of [alice, bob, carol]) {
    await client.waitFor(() => client.snapshot()?.game.ply === ply, `snapshot at ply ${ply}`);
  }
}

test('each socket is bound at opening: two players and a spectator', async () => {
  const [a, b, c] = await Promise.all([alice, bob, carol].map((x) => x.waitFor((f) => f.welcome, 'welcome')));
  assert.equal(a.welcome.role, 'ROLE_PLAYER');
  assert.deepEqual(a.welcome.seatIndexes, [0]);
  assert.equal(a.welcome.invitePath, `/join/${inviteCode}`);
  assert.equal(b.welcome.role, 'ROLE_PLAYER');
  assert.deepEqual(b.welcome.seatIndexes, [1]);
  assert.equal(c.welcome.role, 'ROLE_SPECTATOR');
  assert.deepEqual(c.welcome.seatIndexes, []);
  assert.equal(c.welcome.invitePath, '');
  await everyoneAtPly(0);
  assert.ok(mover(), 'one player has legal moves');
  assert.equal(carol.snapshot().legalMoves.length, 0, 'a spectator gets no legal moves');
  assert.equal(waiting().snapshot().legalMoves.length, 0);
  const view = await carol.waitFor((f) => f.table?.table.status === 'TABLE_STATUS_PLAYING', 'table view');
  assert.deepEqual(view.table.seats.map((s) => s.occupant.playerId), [alice.session.playerId, bob.session.playerId]);
  // The move timer rides in every snapshot; no frame of its own any more.
  const timed = await alice.waitFor((f) => f.snapshot?.clock, 'a snapshot with its timer');
  assert.equal(timed.snapshot.clock.gameId, timed.snapshot.game.gameId);
  assert.equal(timed.snapshot.clock.expectedPly, timed.snapshot.game.ply);
  for (const client of [alice, bob, carol]) {
    assert.ok(client.frames.every((f) => !('clock' in f)), 'no separate clock frame');
    assert.ok(client.frames.filter(snapshotOf).every((f) => snapshotOf(f).clock), 'every snapshot has its timer');
  }
  await alice.waitFor((f) => f.chatHistory, 'chat history');
});

test('a move out of turn or by the spectator is refused and changes nothing', async () => {
  const before = await gameState();
  const notation = mover().snapshot().legalMoves[0].notation;
  const outOfTurn = await waiting().act({ move: { notation, expectedPly: 0 } });
  assert.equal(outOfTurn.error?.code, 'FAILED_PRECONDITION', JSON.stringify(outOfTurn));
  const watching = await carol.act({ move: { notation, expectedPly: 0 } });
  assert.equal(watching.error?.code, 'PERMISSION_DENIED');
  assert.match(watching.error.message, /watching/);
  const resign = await carol.act({ resign: { expectedPly: 0 } });
  assert.equal(resign.error?.code, 'PERMISSION_DENIED');
  const after = await gameState();
  assert.deepEqual(after, before);
  assert.equal(after.ply, 0);
});

test('a move reaches both players and the spectator, with its notation', async () => {
  const player = mover();
  const notation = player.snapshot().legalMoves[0].notation;
  const answer = await player.act({ move: { notation, expectedPly: 0 } });
  assert.ok(answer.ack, JSON.stringify(answer));
  for (const client of [alice, bob, carol]) {
    const event = await client.waitFor((f) => f.gameEvent?.movePlayed?.notation === notation, 'the move event');
    assert.equal(event.gameEvent.movePlayed.automatic, false);
  }
  await everyoneAtPly(1);
  assert.notEqual(mover(), player, 'the turn passed');
});

test('a move is one frame a socket with snapshotAfter: its event and the game after it', async () => {
  const player = mover();
  const other = waiting();
  const ply = player.snapshot().game.ply;
  const notation = player.snapshot().legalMoves[0].notation;
  const marks = new Map([alice, bob, carol].map((client) => [client, client.frames.length]));
  const fresh = (client) => client.frames.slice(marks.get(client));
  assert.ok((await player.act({ move: { notation, expectedPly: ply } })).ack);
  await everyoneAtPly(ply + 1);
  // Frames held back would show up late: give them time to.
  await new Promise((r) => setTimeout(r, 300));
  for (const client of [alice, bob]) {
    const frames = fresh(client);
    const moves = frames.filter((f) => f.gameEvent?.movePlayed);
    assert.equal(moves.length, 1, `${client.name}: one move event`);
    const [{ gameEvent: event, snapshotAfter: after }] = moves;
    assert.ok(after, `${client.name}: the snapshot rides with the move`);
    assert.equal(after.game.ply, event.ply);
    assert.equal(after.game.version, event.version);
    assert.equal(after.game.gameId, event.gameId);
    assert.equal(after.clock.expectedPly, event.ply, 'with its move timer');
    assert.deepEqual(after.yourColors, client.snapshot().yourColors);
    assert.ok(frames.every((f) => !(f.snapshot && f.snapshot.game.version === event.version)), `${client.name}: no second snapshot of that version`);
  }
  const [afterForPlayer, afterForOther] = [player, other].map((c) => fresh(c).find((f) => f.gameEvent?.movePlayed).snapshotAfter);
  assert.equal(afterForPlayer.legalMoves.length, 0, 'no legal moves for the player who just moved');
  assert.ok(afterForOther.legalMoves.length > 0, 'the legal moves for the side to move');
  // A socket that did not ask gets the event alone, then its snapshot.
  const watched = fresh(carol);
  const eventAt = watched.findIndex((f) => f.gameEvent?.movePlayed?.notation === notation);
  assert.ok(eventAt >= 0, 'carol got the move');
  assert.equal(watched[eventAt].snapshotAfter, undefined);
  const version = watched[eventAt].gameEvent.version;
  assert.ok(watched.findIndex((f) => f.snapshot?.game.version === version) > eventAt, 'its snapshot after it');
});

test('?snapshotAfter= other than 1 or 0 is refused before the upgrade', async () => {
  const odd = new Client('odd', carol.session, { snapshotAfter: false });
  odd.tableId = tableId;
  await assert.rejects(odd.open('?snapshotAfter=yes'), (e) => e.status === 400);
});

test('chat: history, then every line to everyone in order', async () => {
  assert.ok((await carol.act({ postChat: { text: 'hello from the stands' } })).ack);
  assert.ok((await alice.act({ postChat: { text: 'hi carol' } })).ack);
  for (const client of [alice, bob, carol]) {
    await client.waitFor((f) => f.chatMessage?.text === 'hi carol', 'the second chat line');
    const texts = client.frames.filter((f) => f.chatMessage).map((f) => f.chatMessage.text);
    assert.deepEqual(texts.filter((t) => t === 'hello from the stands' || t === 'hi carol'), ['hello from the stands', 'hi carol']);
  }
  const line = alice.last('chatMessage');
  assert.equal(line.role, 'CHAT_ROLE_PLAYER');
  assert.equal(line.playerId, alice.session.playerId);
});

test('a spectator who reconnects gets what it missed, once', async () => {
  const seenEvents = carol.frames.filter((f) => f.gameEvent).map((f) => f.gameEvent.eventId);
  const lastEvent = seenEvents.at(-1);
  const lastChat = carol.last('chatMessage').messageId;
  const gameId = carol.snapshot().game.gameId;
  carol.ws.close();
  await carol.closed;
  const player = mover();
  const ply = player.snapshot().game.ply;
  const notation = player.snapshot().legalMoves[0].notation;
  assert.ok((await player.act({ move: { notation, expectedPly: ply } })).ack);
  assert.ok((await bob.act({ postChat: { text: 'while you were away' } })).ack);
  await alice.waitFor((f) => f.chatMessage?.text === 'while you were away', 'the missed line');

  const before = carol.frames.length;
  await carol.open(`?game=${gameId}&after=${lastEvent}&chatAfter=${lastChat}`);
  await carol.waitFor((f, i) => i >= before && f.gameEvent?.movePlayed?.notation === notation, 'the missed move');
  await carol.waitFor((f, i) => i >= before && f.chatMessage?.text === 'while you were away', 'the missed chat line');
  await carol.waitFor(() => carol.snapshot()?.game.ply === ply + 1, 'a fresh snapshot');
  await new Promise((r) => setTimeout(r, 300));
  const resumed = carol.frames.slice(before);
  assert.equal(resumed.filter((f) => f.chatHistory).length, 0, 'no history on a resume');
  const ids = [...seenEvents, ...resumed.filter((f) => f.gameEvent).map((f) => f.gameEvent.eventId)];
  assert.equal(new Set(ids).size, ids.length, 'no event twice');
  const plies = carol.moveEvents().map((e) => e.ply);
  assert.deepEqual(plies, Array.from({ length: ply + 1 }, (_, i) => i + 1), 'every move once, in order');
  const chats = carol.frames.filter((f) => f.chatMessage).map((f) => f.chatMessage.messageId);
  assert.equal(new Set(chats).size, chats.length, 'no chat line twice');
});

test('presence: closing a player\'s socket disconnects the seat, reopening reconnects it', async () => {
  const bobColor = bob.snapshot().yourColors[0];
  bob.ws.close();
  await bob.closed;
  await alice.waitFor((f) => f.gameEvent?.seatDisconnected?.color === bobColor, 'seatDisconnected');
  await bob.open();
  await alice.waitFor((f) => f.gameEvent?.seatConnected?.color === bobColor && alice.frames.indexOf(f) > alice.frames.findIndex((g) => g.gameEvent?.seatDisconnected), 'seatConnected');
  await bob.waitFor((f) => f.snapshot, 'bob snapshot again');
});

test('draw offer answered, then resignation ends the game', async () => {
  const ply = alice.snapshot().game.ply;
  assert.ok((await alice.act({ offerDraw: { expectedPly: ply } })).ack);
  await bob.waitFor((f) => f.gameEvent?.drawOffered, 'drawOffered');
  await bob.waitFor(() => bob.snapshot().game.drawOfferedBy !== 'COLOR_UNSPECIFIED', 'offer in snapshot');
  assert.ok((await bob.act({ answerDraw: { expectedPly: ply, accept: false } })).ack);
  await carol.waitFor((f) => f.gameEvent?.drawDeclined, 'drawDeclined');
  assert.ok((await bob.act({ resign: { expectedPly: ply } })).ack);
  for (const client of [alice, bob, carol]) {
    const over = await client.waitFor((f) => f.gameOver, 'gameOver');
    assert.equal(over.gameOver.reason, 'RESULT_REASON_RESIGNATION');
  }
});

test('rematch: both vote, the next game starts with the colours swapped', async () => {
  const aliceColor = alice.snapshot().yourColors[0];
  const firstGame = alice.snapshot().game.gameId;
  await alice.waitFor((f) => f.table?.table.status === 'TABLE_STATUS_FINISHED', 'finished table');
  const first = await alice.act({ voteRematch: {} });
  assert.ok(first.ack, JSON.stringify(first));
  await bob.waitFor((f) => f.table?.seats[0].rematchVote === true, 'alice\'s vote shown');
  const second = await bob.act({ voteRematch: {} });
  assert.equal(second.ack?.started, true, JSON.stringify(second));
  for (const client of [alice, bob, carol]) {
    await client.waitFor(() => client.snapshot()?.game.gameId !== firstGame && client.snapshot()?.game.ply === 0, 'the new game');
  }
  assert.notEqual(alice.snapshot().yourColors[0], aliceColor, 'colours swapped');
  const view = await carol.waitFor((f) => f.table?.score.gamesFinished === 1, 'the score');
  assert.deepEqual(view.table.score.wins, [1, 0], 'alice won the first game (bob resigned)');
  // In the new game the draw is agreed.
  const ply = 0;
  assert.ok((await bob.act({ offerDraw: { expectedPly: ply } })).ack);
  await alice.waitFor(() => alice.snapshot().game.drawOfferedBy !== 'COLOR_UNSPECIFIED', 'offer');
  assert.ok((await alice.act({ answerDraw: { expectedPly: ply, accept: true } })).ack);
  const over = await carol.waitFor((f) => f.gameOver?.reason === 'RESULT_REASON_DRAW_AGREED', 'draw agreed');
  assert.equal(over.gameOver.result, 'GAME_RESULT_DRAW');
});

test('bad frames get a clear error with their request id, and the socket stays open', async () => {
  alice.ws.send('{not json');
  const malformed = await alice.waitFor((f) => f.error && f.error.message.includes('JSON'), 'malformed error');
  assert.equal(malformed.error.code, 'INVALID_ARGUMENT');
  const unknown = await alice.act({ fly: { high: true } });
  assert.equal(unknown.error?.code, 'INVALID_ARGUMENT');
  const none = await alice.act({});
  assert.equal(none.error?.code, 'INVALID_ARGUMENT');
  const negative = await alice.act({ move: { notation: '32-28', expectedPly: -1 } });
  assert.equal(negative.error?.code, 'INVALID_ARGUMENT');
  alice.ws.send(Buffer.from([1, 2, 3]), { binary: true });
  await alice.waitFor((f) => f.error?.message.includes('text frames'), 'binary refused');
  const pong = alice.frames.length;
  alice.ws.send(JSON.stringify({ ping: {} }));
  await alice.waitFor((f, i) => i >= pong && f.pong, 'pong');
});

test('a flood of actions is cut at the rate limit and changes nothing', async () => {
  const before = await gameState();
  const first = bob.seq + 1;
  for (let i = 0; i < 30; ++i) bob.ws.send(JSON.stringify({ requestId: `bob-${++bob.seq}`, undo: { expectedPly: 99 } }));
  const answers = [];
  for (let id = first; id <= bob.seq; ++id) answers.push(await bob.waitFor((f) => f.requestId === `bob-${id}`, `answer ${id}`));
  const limited = answers.filter((a) => a.error?.code === 'RESOURCE_EXHAUSTED');
  assert.ok(limited.length >= 15, `only ${limited.length} of 30 limited`);
  assert.ok(answers.every((a) => a.error), 'none succeeded');
  const after = await gameState();
  assert.deepEqual(after, before);
});

test('an oversized message is closed with 1009', async () => {
  const dave = new Client('dave', carol.session);
  dave.tableId = tableId;
  await dave.open();
  dave.ws.send('x'.repeat(20 * 1024));
  assert.equal(await dave.closed, 1009);
});

test('Origin and the per-session cap are checked before the upgrade', async () => {
  const foreign = new Client('foreign', carol.session);
  foreign.tableId = tableId;
  await assert.rejects(foreign.open('', { Origin: 'http://evil.example' }), (e) => e.status === 403);
  // Opens carol's sockets until one is refused; closes them again.
  const fill = async (round) => {
    const extra = [];
    let refused;
    for (let i = 0; i < 10 && !refused; ++i) {
      const client = new Client(`tab${round}-${i}`, carol.session);
      client.tableId = tableId;
      try {
        await client.open();
        extra.push(client);
      } catch (error) {
        refused = error;
      }
    }
    await Promise.all(extra.map((client) => {
      client.ws.close();
      return client.closed;
    }));
    return {opened: extra.length, refused};
  };
  // A socket the previous test closed (dave's, on carol's session) may
  // still hold its place for a moment after its close reached the client:
  // the cap is then reached one socket early, never late.
  let round = await fill(0);
  for (let attempt = 1; round.opened + 1 < 8 && attempt < 20; ++attempt) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    round = await fill(attempt);
  }
  assert.equal(round.refused?.status, 503);
  assert.equal(round.opened + 1, 8, 'eight sockets per session (carol already has one)');
  const missing = new Client('ghost', carol.session);
  missing.tableId = 'no-such-table';
  await assert.rejects(missing.open(), (e) => e.status === 404);
});

test('against the computer: start from the socket, move, the bot replies, undo takes both back', async () => {
  const solo = new Client('solo', await newSession());
  const created = await call(matchmaking, 'CreateTable', {
    idempotency_key: randomUUID(), requester: seatOf(solo.session), variant: 'international',
    vs_computer: true, bot_level: 'BOT_LEVEL_EASY', creator_color: 'COLOR_WHITE',
  });
  solo.tableId = created.table.table_id;
  await solo.open();
  if (!created.table.game_id) assert.ok((await solo.act({ startGame: {} })).ack);
  await solo.waitFor(() => solo.snapshot()?.legalMoves.length > 0, 'a snapshot to move in');
  const view = await solo.waitFor((f) => f.table?.seats[1]?.occupant?.kind === 'SEAT_KIND_BOT', 'the bot seat');
  assert.equal(view.table.seats[1].connected, true, 'the computer is always there');
  const notation = solo.snapshot().legalMoves[0].notation;
  assert.ok((await solo.act({ move: { notation, expectedPly: 0 } })).ack);
  await solo.waitFor(() => solo.snapshot()?.game.ply === 2, 'the bot\'s reply', 30000);
  const undo = await solo.act({ undo: { expectedPly: 2 } });
  assert.ok(undo.ack, JSON.stringify(undo));
  await solo.waitFor((f) => f.gameEvent?.moveUndone, 'moveUndone');
  await solo.waitFor(() => solo.snapshot()?.game.ply === 0, 'back at the start');
  solo.ws.close();
});

test('hotseat: one socket holds both seats and plays both colours', async () => {
  const pair = new Client('pair', await newSession());
  const created = await call(matchmaking, 'CreateTable', {
    idempotency_key: randomUUID(), requester: seatOf(pair.session), variant: 'english', hotseat: true,
  });
  pair.tableId = created.table.table_id;
  await pair.open();
  const welcome = await pair.waitFor((f) => f.welcome, 'welcome');
  assert.deepEqual(welcome.welcome.seatIndexes, [0, 1]);
  if (!created.table.game_id) assert.ok((await pair.act({ startGame: {} })).ack);
  await pair.waitFor(() => pair.snapshot()?.legalMoves.length > 0, 'moves');
  assert.equal(pair.snapshot().yourColors.length, 2);
  for (let ply = 0; ply < 2; ++ply) {
    await pair.waitFor(() => pair.snapshot()?.game.ply === ply && pair.snapshot().legalMoves.length > 0, `moves at ${ply}`);
    const notation = pair.snapshot().legalMoves[0].notation;
    assert.ok((await pair.act({ move: { notation, expectedPly: ply } })).ack);
  }
  await pair.waitFor(() => pair.snapshot()?.game.ply === 2, 'two plies');
  assert.ok((await pair.act({ resign: { expectedPly: 2, color: 'COLOR_WHITE' } })).ack);
  const over = await pair.waitFor((f) => f.gameOver, 'gameOver');
  assert.equal(over.gameOver.by, 'COLOR_WHITE');
  pair.ws.close();
});

test('time runs out: automatic moves are marked and counted; a muted table refuses spectators\' chat', async () => {
  const dave = new Client('dave', await newSession());
  const erin = new Client('erin', await newSession());
  const frank = new Client('frank', await newSession());
  const created = await call(matchmaking, 'CreateTable', {
    idempotency_key: randomUUID(), requester: seatOf(dave.session), variant: 'international',
    time_per_move: { seconds: 1 }, options: { spectators_muted: true },
  });
  const id = created.table.table_id;
  await call(matchmaking, 'JoinTable', { idempotency_key: randomUUID(), requester: seatOf(erin.session), table_id: id });
  for (const client of [dave, erin, frank]) {
    client.tableId = id;
    await client.open();
  }
  assert.equal((await frank.waitFor((f) => f.welcome, 'welcome')).welcome.chatMuted, true);
  assert.ok((await dave.act({ startGame: {} })).ack);
  const automatic = await frank.waitFor((f) => f.gameEvent?.movePlayed?.automatic === true, 'an automatic move', 30000);
  const color = automatic.gameEvent.movePlayed.color;
  await frank.waitFor((f) => snapshotOf(f)?.clock && (color === 'COLOR_WHITE' ? snapshotOf(f).clock.whiteTimeouts : snapshotOf(f).clock.blackTimeouts) >= 1, 'the timeout counted');
  const clock = frank.frames.find((f) => snapshotOf(f)?.clock?.armed);
  assert.ok(clock, 'a running move timer was shown');
  const muted = await frank.act({ postChat: { text: 'let me talk' } });
  assert.equal(muted.error?.code, 'PERMISSION_DENIED', JSON.stringify(muted));
  assert.ok((await dave.act({ postChat: { text: 'players still talk' } })).ack);
  await frank.waitFor((f) => f.chatMessage?.text === 'players still talk', 'the player\'s line');
  for (const client of [dave, erin, frank]) client.ws.close();
});

test('the per-game hotseat socket /ws/games/<id> still works beside it', async () => {
  const session = await newSession();
  const response = await fetch(`http://127.0.0.1:${gatewayPort}/api/games`, {
    method: 'POST', headers: { Cookie: session.cookie, 'Content-Type': 'application/json' },
    body: JSON.stringify({ variant: 'english', mode: 'hotseat' }),
  });
  assert.equal(response.status, 200);
  const created = await response.json();
  const ws = new WebSocket(`ws://127.0.0.1:${gatewayPort}/ws/games/${created.gameId}`, { headers: { Cookie: session.cookie } });
  const frames = [];
  ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  const deadline = Date.now() + 20000;
  while (!frames.some((f) => f.type === 'snapshot') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  const snapshot = frames.find((f) => f.type === 'snapshot');
  assert.ok(snapshot, 'a snapshot');
  const token = created.seats[snapshot.game.sideToMove === 'COLOR_WHITE' ? 'white' : 'black'];
  ws.send(JSON.stringify({ requestId: 'g1', action: 'move', token, move: snapshot.legalMoves[0].notation, expectedPly: 0 }));
  while (!frames.some((f) => f.type === 'ack' && f.requestId === 'g1') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  assert.ok(frames.some((f) => f.type === 'ack' && f.requestId === 'g1'), JSON.stringify(frames.slice(-3)));
  ws.close();
});

test('no secret in any byte the opponent or the spectator received', async () => {
  const aliceTokens = (await call(matchmaking, 'GetTable', { table_id: tableId, requester: seatOf(alice.session) })).your_tokens;
  const bobTokens = (await call(matchmaking, 'GetTable', { table_id: tableId, requester: seatOf(bob.session) })).your_tokens;
  assert.ok(aliceTokens.length > 0 && bobTokens.length > 0);
  const everything = (client) => client.raw.join('\n');
  const check = (client, secret, what) => assert.ok(!everything(client).includes(secret), `${client.name} received ${what}`);
  for (const client of [bob, carol]) {
    check(client, alice.session.sessionId, 'alice\'s session id');
    for (const t of aliceTokens) check(client, t.player_token, 'alice\'s seat token');
  }
  for (const client of [alice, carol]) {
    check(client, bob.session.sessionId, 'bob\'s session id');
    for (const t of bobTokens) check(client, t.player_token, 'bob\'s seat token');
  }
  for (const client of [alice, bob, carol]) check(client, password, 'the table password');
  check(carol, inviteCode, 'the invite code');
  check(carol, carol.session.sessionId, 'its own session id');
});
