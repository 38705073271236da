// A rated game's result on the table WebSocket (issue #14): two accounts
// (PERSON seats) play a rated table to resignation; both players' sockets
// and a spectator's receive a follow-up gameOver whose ratingChanges match
// what RatingService.GetHistory recorded (winner up, loser down); an
// unrated game between the same accounts sends none. Real gateway (with
// accounts on PostgreSQL), matchmaking, game_state, clock, chat and rating
// binaries on a private redis-server and a fresh database of
// DRAUGHTS_TEST_PG (dropped at the end).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import WebSocket from 'ws';
import { Cluster } from './lib/cluster.mjs';
import { repoRoot } from './lib/game_client.mjs';
import { RatingClient } from './lib/rating_service.mjs';
import { ServerFrame, checkJson } from './lib/server_frame.mjs';

const v1 = grpc.loadPackageDefinition(protoLoader.loadSync(['draughts/v1/matchmaking.proto'], {
  includeDirs: [path.join(repoRoot, 'proto')], keepCase: true, enums: String, longs: String, defaults: true, oneofs: true,
})).draughts.v1;

const cluster = new Cluster();
const database = `table_rating_${randomBytes(6).toString('hex')}`;
let pg;
let gatewayPort;
let matchmaking;
let ratings;
let alice;
let bob;
let carol;

function required(variable) {
  const value = process.env[variable];
  if (!value) throw new Error(`${variable} is not set (see tests/contract/CMakeLists.txt and scripts/test)`);
  return value;
}

function pgTool(tool, args) {
  return execFileSync(path.join(process.env.DRAUGHTS_TEST_PG_BIN || '/usr/lib/postgresql/15/bin', tool),
    ['-h', pg.host, '-p', pg.port, '-U', pg.user, ...args], { encoding: 'utf8' });
}

const startService = (name, variable, args) => cluster.startServiceFromEnv(name, variable, args);

function call(stub, method, request) {
  return new Promise((resolve, reject) => {
    stub[method](request, { deadline: Date.now() + 15000 }, (error, response) => (error ? reject(error) : resolve(response)));
  });
}

function cookieOf(response) {
  return response.headers.get('set-cookie').split(';')[0];
}

async function register(name) {
  const response = await fetch(`http://127.0.0.1:${gatewayPort}/api/accounts`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, password: 'a long password' }),
  });
  const body = await response.json();
  assert.equal(response.status, 200, JSON.stringify(body));
  return { name, playerId: body.playerId, cookie: cookieOf(response) };
}

async function guest() {
  const response = await fetch(`http://127.0.0.1:${gatewayPort}/api/session`, { method: 'POST' });
  assert.equal(response.status, 200);
  return { ...(await response.json()), cookie: cookieOf(response) };
}

const person = (account) => ({ kind: 'SEAT_KIND_PERSON', player_id: account.playerId, display_name: account.name });

class Client {
  constructor(name, session) {
    this.name = name;
    this.session = session;
    this.frames = [];
    this.seq = 0;
  }

  open(tableId) {
    this.frames = [];
    this.ws = new WebSocket(`ws://127.0.0.1:${gatewayPort}/ws/tables/${tableId}`, {
      headers: { Cookie: this.session.cookie, Origin: `http://127.0.0.1:${gatewayPort}` },
    });
    this.ws.on('message', (data) => {
      const text = data.toString();
      const frame = JSON.parse(text);
      assert.deepEqual(checkJson(ServerFrame, frame), [], `${this.name} got a frame that is not a ServerFrame: ${text.slice(0, 300)}`);
      this.frames.push(frame);
    });
    return new Promise((resolve, reject) => {
      this.ws.once('open', resolve);
      this.ws.once('error', reject);
    });
  }

  async waitFor(predicate, what, timeoutMs = 30000) {
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

  async act(action) {
    const requestId = `${this.name}-${++this.seq}`;
    this.ws.send(JSON.stringify({ requestId, ...action }));
    return this.waitFor((f) => f.requestId === requestId && (f.ack || f.error), `answer to ${requestId}`);
  }

  close() { this.ws?.terminate(); }
}

before(async () => {
  pg = {};
  for (const [, key, value] of required('DRAUGHTS_TEST_PG').matchAll(/(\w+)=('[^']*'|\S+)/g)) pg[key] = value.replace(/^'|'$/g, '');
  pgTool('createdb', [database]);
  pg.created = true;
  const conninfo = `host=${pg.host} port=${pg.port} user=${pg.user} dbname=${database} connect_timeout=5`;
  const redis = await cluster.startRedis();
  const gameState = await startService('game-state', 'DRAUGHTS_GAME_STATE_BIN', [`--redis=${redis}`, `--token-secret=ts-${randomUUID()}`]);
  const mm = await startService('matchmaking', 'DRAUGHTS_MATCHMAKING_BIN', [
    `--redis=${redis}`, `--game-state=${gameState}`, '--token-secret=table-rating-mm-secret', '--password-memlimit-kib=64']);
  const clock = await startService('clock', 'DRAUGHTS_CLOCK_BIN', [`--redis=${redis}`, `--game-state=${gameState}`]);
  const chat = await startService('chat', 'DRAUGHTS_CHAT_BIN', [`--redis=${redis}`, `--game-state=${gameState}`, `--matchmaking=${mm}`]);
  const rating = await startService('rating', 'DRAUGHTS_RATING_BIN', [`--redis=${redis}`, `--pg=${conninfo}`, '--drain=0s']);
  const gateway = await startService('gateway', 'DRAUGHTS_GATEWAY_BIN', [
    `--redis=${redis}`, `--game-state=${gameState}`, `--matchmaking=${mm}`, `--clock=${clock}`, `--chat=${chat}`,
    `--rating=${rating}`, `--pg=${conninfo}`, '--password-opslimit=1', '--password-memlimit-kib=8192',
    `--web-root=${path.join(repoRoot, 'web/dist')}`]);
  gatewayPort = Number(gateway.split(':')[1]);
  matchmaking = new v1.MatchmakingService(mm, grpc.credentials.createInsecure());
  ratings = new RatingClient(rating);
  alice = new Client('alice', await register(`alice${randomBytes(3).toString('hex')}`));
  bob = new Client('bob', await register(`bob${randomBytes(3).toString('hex')}`));
  carol = new Client('carol', await guest());
});

after(async () => {
  for (const client of [alice, bob, carol]) client?.close();
  matchmaking?.close();
  ratings?.close();
  await cluster.stop();
  if (pg?.created) {
    pgTool('psql', ['-d', pg.dbname, '-Atc', `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '${database}'`]);
    pgTool('dropdb', ['--if-exists', database]);
  }
});

// Alice's table, Bob joined, the game started, the three sockets open;
// then the player holding white resigns. Resolves with the game id.
async function playToResignation(rated) {
  const created = await call(matchmaking, 'CreateTable', {
    idempotency_key: randomUUID(), requester: person(alice.session), variant: 'international', rated,
  });
  const tableId = created.table.table_id;
  await call(matchmaking, 'JoinTable', { idempotency_key: randomUUID(), requester: person(bob.session), table_id: tableId });
  await call(matchmaking, 'StartGame', { idempotency_key: randomUUID(), requester: person(alice.session), table_id: tableId });
  for (const client of [alice, bob, carol]) await client.open(tableId);
  const snapshot = await alice.waitFor((f) => f.snapshot?.game.gameId, 'snapshot');
  const white = snapshot.snapshot.yourColors[0] === 'COLOR_WHITE' ? alice : bob;
  // As the page: the resign button acts on the game its own socket shows.
  await white.waitFor((f) => f.snapshot?.game.gameId === snapshot.snapshot.game.gameId, 'white\'s snapshot');
  const answer = await white.act({ resign: { expectedPly: 0 } });
  assert.ok(answer.ack, JSON.stringify(answer));
  return { gameId: snapshot.snapshot.game.gameId, white, black: white === alice ? bob : alice };
}

async function historyEntry(client, gameId) {
  const deadline = Date.now() + 30000;
  for (;;) {
    const history = await ratings.ok('GetHistory', { player_id: client.session.playerId, variant: 'international', page_size: 20 });
    const entry = history.entries.find((e) => e.game_id === gameId);
    if (entry) return entry;
    if (Date.now() > deadline) throw new Error(`${gameId} not in ${client.name}'s history`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a rated game: every socket gets both rating changes, as GetHistory has them', async () => {
  const { gameId, white, black } = await playToResignation(true);
  const expected = {};
  for (const [client, color] of [[white, 'COLOR_WHITE'], [black, 'COLOR_BLACK']]) {
    const entry = await historyEntry(client, gameId);
    assert.equal(entry.elo_changed, true);
    expected[color] = { playerId: client.session.playerId, eloBefore: entry.elo_before, eloAfter: entry.elo_after };
  }
  // White resigned: black gains what white loses.
  assert.ok(expected.COLOR_BLACK.eloAfter > expected.COLOR_BLACK.eloBefore);
  assert.ok(expected.COLOR_WHITE.eloAfter < expected.COLOR_WHITE.eloBefore);
  for (const client of [alice, bob, carol]) {
    const plain = await client.waitFor((f) => f.gameOver?.gameId === gameId, 'gameOver');
    assert.equal(plain.gameOver.result, 'GAME_RESULT_BLACK_WINS');
    const over = await client.waitFor((f) => f.gameOver?.gameId === gameId && f.gameOver.ratingChanges?.length > 0,
      'gameOver with rating changes');
    assert.equal(over.gameOver.result, 'GAME_RESULT_BLACK_WINS');
    assert.equal(over.gameOver.ratingChanges.length, 2);
    for (const change of over.gameOver.ratingChanges) {
      const want = expected[change.color];
      assert.ok(want, `unexpected colour ${change.color}`);
      assert.equal(change.playerId, want.playerId);
      assert.equal(change.eloBefore, want.eloBefore);
      assert.equal(change.eloAfter, want.eloAfter);
      assert.match(change.month, /^\d{4}-\d{2}$/);
    }
    client.close();
  }
});

test('an unrated game: gameOver carries no rating change', async () => {
  const { gameId, white, black } = await playToResignation(false);
  // Once the rating service has recorded it (unchanged Elo), and a little
  // after, no socket has been sent a change.
  for (const client of [white, black]) assert.equal((await historyEntry(client, gameId)).elo_changed, false);
  await new Promise((r) => setTimeout(r, 1500));
  for (const client of [alice, bob, carol]) {
    await client.waitFor((f) => f.gameOver?.gameId === gameId, 'gameOver');
    const withChanges = client.frames.filter((f) => f.gameOver?.ratingChanges?.length > 0);
    assert.deepEqual(withChanges, [], `${client.name} got rating changes for an unrated game`);
    client.close();
  }
});
