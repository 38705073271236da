// Contract test of matchmaking's documented error codes, from outside: an
// independent @grpc/grpc-js client against the real matchmaking binary (a
// private redis-server and a real game_state), plus a matchmaking replica
// whose Redis is down for UNAVAILABLE. Each case provokes one code that
// matchmaking.proto documents for the call.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import { Cluster } from './lib/cluster.mjs';
import { repoRoot } from './lib/game_client.mjs';

const v1 = grpc.loadPackageDefinition(protoLoader.loadSync(['draughts/v1/matchmaking.proto'], {
  includeDirs: [path.join(repoRoot, 'proto')],
  keepCase: true, enums: String, longs: String, defaults: true, oneofs: true,
})).draughts.v1;

const cluster = new Cluster();
let mm;    // a matchmaking replica on the cluster's Redis and game_state
let dead;  // a matchmaking replica whose Redis is down

async function startMatchmaking(name, redis, gameState) {
  const binary = process.env.DRAUGHTS_MATCHMAKING_BIN;
  if (!binary) throw new Error('DRAUGHTS_MATCHMAKING_BIN is not set (see tests/contract/CMakeLists.txt)');
  const child = cluster.launch(name, binary, [
    '--listen=127.0.0.1:0', '--metrics-port=-1', '--log-level=warn', '--drain=0s',
    `--redis=${redis}`, `--game-state=${gameState}`, `--key-prefix=${cluster.keyPrefix}`,
    '--token-secret=contract-matchmaking-secret', '--password-memlimit-kib=64',
    '--max-open-tables=3', '--password-guesses-per-table=2', '--password-guesses-per-player=50',
    '--engines=scan',
  ], { ASAN_OPTIONS: [process.env.ASAN_OPTIONS, 'detect_leaks=0'].filter(Boolean).join(':') });
  child.isReplica = true;
  const port = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not listen: ${cluster.log(child)}`)), 60000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /LISTENING (\d+)/.exec(out);
      if (match) { clearTimeout(timer); resolve(Number(match[1])); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${name} exited ${code}: ${cluster.log(child)}`)); });
  });
  child.stdout.resume();
  return new v1.MatchmakingService(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
}

function call(stub, method, request) {
  return new Promise((resolve) => {
    stub[method](request, { deadline: Date.now() + 15000 }, (error, response) => resolve({ error, response }));
  });
}

async function expectCode(stub, method, request, code, why) {
  const { error } = await call(stub, method, request);
  const got = error ? error.code : grpc.status.OK;
  assert.equal(got, code, `${method} (${why}): expected ${code}, got ${got} ${error?.details ?? ''}`);
  return error;
}

async function ok(stub, method, request) {
  const { error, response } = await call(stub, method, request);
  if (error) throw new Error(`${method} failed: ${error.code} ${error.details}`);
  return response;
}

const person = (id) => ({ kind: 'SEAT_KIND_PERSON', player_id: id, display_name: `Player ${id}` });
const guest = (id) => ({ kind: 'SEAT_KIND_GUEST', player_id: id, display_name: `Guest ${id}` });
const key = () => randomUUID();
const S = grpc.status;

before(async () => {
  await cluster.startRedis();
  const gameState = await cluster.startReplica('game-state');
  mm = await startMatchmaking('mm', cluster.redisAddress, gameState.address);
  dead = await startMatchmaking('mm-dead-redis', await cluster.deadRedisAddress(), gameState.address);
});

after(async () => {
  mm?.close();
  dead?.close();
  await cluster.stop();
});

const create = (requester, extra = {}) =>
  ok(mm, 'CreateTable', { idempotency_key: key(), requester, variant: 'international', ...extra });

test('CreateTable', async () => {
  const base = { idempotency_key: key(), requester: person('c1'), variant: 'international' };
  await expectCode(mm, 'CreateTable', { ...base, idempotency_key: '' }, S.INVALID_ARGUMENT, 'no key');
  await expectCode(mm, 'CreateTable', { ...base, requester: null }, S.INVALID_ARGUMENT, 'no requester');
  await expectCode(mm, 'CreateTable', { ...base, requester: { kind: 'SEAT_KIND_BOT', display_name: 'B' } }, S.INVALID_ARGUMENT, 'bot requester');
  await expectCode(mm, 'CreateTable', { ...base, variant: 'chess' }, S.INVALID_ARGUMENT, 'unknown variant');
  await expectCode(mm, 'CreateTable', { ...base, options: { mandatory_capture: false } }, S.INVALID_ARGUMENT, 'unsupported option');
  await expectCode(mm, 'CreateTable', { ...base, time_per_move: { seconds: 45 } }, S.INVALID_ARGUMENT, 'time not offered');
  await expectCode(mm, 'CreateTable', { ...base, rated: true, vs_computer: true }, S.INVALID_ARGUMENT, 'rated vs computer');
  await expectCode(mm, 'CreateTable', { ...base, rated: true, requester: guest('g_c') }, S.INVALID_ARGUMENT, 'rated guest');
  await expectCode(mm, 'CreateTable', { ...base, creator_color: 'COLOR_WHITE' }, S.INVALID_ARGUMENT, 'colour without computer');
  await expectCode(mm, 'CreateTable', { ...base, password: 'x'.repeat(65) }, S.INVALID_ARGUMENT, 'password too long');
  await ok(mm, 'CreateTable', base);
  await expectCode(mm, 'CreateTable', { ...base, variant: 'english' }, S.INVALID_ARGUMENT, 'key reused');
  await create(person('c1'));
  await create(person('c1'));
  await expectCode(mm, 'CreateTable', { ...base, idempotency_key: key() }, S.RESOURCE_EXHAUSTED, 'too many open tables');
  await expectCode(dead, 'CreateTable', { ...base, idempotency_key: key() }, S.UNAVAILABLE, 'Redis down');
});

test('GetTable, ListTables, GetInviteLink', async () => {
  await expectCode(mm, 'GetTable', { table_id: '' }, S.INVALID_ARGUMENT, 'empty id');
  await expectCode(mm, 'GetTable', { table_id: 'tnosuchtable' }, S.NOT_FOUND, 'unknown');
  await expectCode(mm, 'ListTables', { page_size: -1 }, S.INVALID_ARGUMENT, 'negative page');
  await expectCode(mm, 'ListTables', { page_token: 'garbage' }, S.INVALID_ARGUMENT, 'bad token');
  await expectCode(mm, 'ListTables', { variant: 'chess' }, S.INVALID_ARGUMENT, 'unknown variant');
  await expectCode(dead, 'ListTables', {}, S.UNAVAILABLE, 'Redis down');
  const { table } = await create(person('l1'));
  await expectCode(mm, 'GetInviteLink', { requester: person('other'), table_id: table.table_id }, S.PERMISSION_DENIED, 'not seated');
  await expectCode(mm, 'GetInviteLink', { requester: person('l1'), table_id: 'tnosuchtable' }, S.NOT_FOUND, 'unknown');
  const link = await ok(mm, 'GetInviteLink', { requester: person('l1'), table_id: table.table_id });
  assert.ok(link.invite_code.length >= 10);
  assert.equal(link.path, `/join/${link.invite_code}`);
});

test('JoinTable', async () => {
  const join = (extra) => ({ idempotency_key: key(), requester: person('j2'), ...extra });
  await expectCode(mm, 'JoinTable', join({}), S.INVALID_ARGUMENT, 'no target');
  await expectCode(mm, 'JoinTable', join({ invite_code: 'nosuchcode' }), S.NOT_FOUND, 'unknown code');
  await expectCode(mm, 'JoinTable', join({ table_id: 'tnosuchtable' }), S.NOT_FOUND, 'unknown id');
  const { table: rated } = await create(person('j1'), { rated: true });
  await expectCode(mm, 'JoinTable', { ...join({ table_id: rated.table_id }), requester: guest('g_j') }, S.FAILED_PRECONDITION, 'guest at a rated table');
  await ok(mm, 'JoinTable', join({ table_id: rated.table_id }));
  await expectCode(mm, 'JoinTable', { ...join({ table_id: rated.table_id }), requester: person('j3') }, S.FAILED_PRECONDITION, 'no open seat');
  const { table: secret } = await create(person('j4'), { password: 'hunter2' });
  await expectCode(mm, 'JoinTable', join({ table_id: secret.table_id }), S.PERMISSION_DENIED, 'missing password');
  const wrong = await expectCode(mm, 'JoinTable', join({ table_id: secret.table_id, password: 'nope' }), S.PERMISSION_DENIED, 'wrong password');
  const unknown = await expectCode(mm, 'JoinTable', join({ table_id: 'tnosuchtable', password: 'nope' }), S.PERMISSION_DENIED, 'password for an unknown id');
  assert.equal(wrong.details, unknown.details, 'the guesser cannot tell them apart');
  await expectCode(mm, 'JoinTable', join({ table_id: secret.table_id, password: 'nope2' }), S.PERMISSION_DENIED, 'second wrong guess');
  await expectCode(mm, 'JoinTable', join({ table_id: secret.table_id, password: 'hunter2' }), S.RESOURCE_EXHAUSTED, 'guess limit');
});

test('LeaveTable, FillSeatsWithBots, StartGame, VoteRematch', async () => {
  await expectCode(mm, 'LeaveTable', { idempotency_key: key(), requester: person('x'), table_id: '' }, S.INVALID_ARGUMENT, 'no table');
  await expectCode(mm, 'LeaveTable', { idempotency_key: key(), requester: person('x'), table_id: 'tnosuchtable' }, S.NOT_FOUND, 'unknown');
  const { table } = await create(person('f1'));
  const fill = (extra) => ({ idempotency_key: key(), requester: person('f1'), table_id: table.table_id, level: 'BOT_LEVEL_MEDIUM', ...extra });
  await expectCode(mm, 'FillSeatsWithBots', fill({ level: 'BOT_LEVEL_UNSPECIFIED' }), S.INVALID_ARGUMENT, 'no level');
  await expectCode(mm, 'FillSeatsWithBots', fill({ engine_id: 'nosuchengine' }), S.NOT_FOUND, 'unknown engine');
  await expectCode(mm, 'FillSeatsWithBots', fill({ requester: person('f2') }), S.PERMISSION_DENIED, 'not the creator');
  await expectCode(mm, 'FillSeatsWithBots', fill({ table_id: 'tnosuchtable' }), S.NOT_FOUND, 'unknown table');
  const start = (who) => ({ idempotency_key: key(), requester: person(who), table_id: table.table_id });
  await expectCode(mm, 'StartGame', start('f1'), S.FAILED_PRECONDITION, 'a seat is open');
  await expectCode(mm, 'StartGame', start('f9'), S.PERMISSION_DENIED, 'not seated');
  const filled = await ok(mm, 'FillSeatsWithBots', fill({ engine_id: 'scan' }));
  assert.equal(filled.table.seats[1].occupant.engine_id, 'scan');
  await expectCode(mm, 'FillSeatsWithBots', fill({}), S.FAILED_PRECONDITION, 'no open seat');
  await expectCode(mm, 'VoteRematch', start('f1'), S.FAILED_PRECONDITION, 'no finished game');
  await expectCode(mm, 'VoteRematch', start('f9'), S.PERMISSION_DENIED, 'not seated');
  const started = await ok(mm, 'StartGame', start('f1'));
  assert.equal(started.table.status, 'TABLE_STATUS_PLAYING');
  assert.equal(started.your_tokens.length, 1);
  const { table: rated } = await create(person('f3'), { rated: true });
  await expectCode(mm, 'FillSeatsWithBots', { ...fill({ table_id: rated.table_id }), requester: person('f3') }, S.INVALID_ARGUMENT, 'rated table');
});

test('QuickPair', async () => {
  const ask = (extra) => ({ idempotency_key: key(), requester: person('q1'), variant: 'international', rated: true, rating: 1500, ...extra });
  await expectCode(mm, 'QuickPair', ask({ idempotency_key: '' }), S.INVALID_ARGUMENT, 'no key');
  await expectCode(mm, 'QuickPair', ask({ variant: 'chess' }), S.INVALID_ARGUMENT, 'unknown variant');
  await expectCode(mm, 'QuickPair', ask({ time_per_move: { seconds: 7 } }), S.INVALID_ARGUMENT, 'time not offered');
  await expectCode(mm, 'QuickPair', ask({ requester: guest('g_q') }), S.INVALID_ARGUMENT, 'rated guest');
  await expectCode(mm, 'QuickPair', ask({ rating: -5 }), S.INVALID_ARGUMENT, 'negative rating');
  await expectCode(dead, 'QuickPair', ask({}), S.UNAVAILABLE, 'Redis down');
  const waiting = await ok(mm, 'QuickPair', ask({}));
  assert.equal(waiting.created, true);
  const paired = await ok(mm, 'QuickPair', ask({ requester: person('q2'), rating: 1520 }));
  assert.equal(paired.created, false);
  assert.equal(paired.table.table_id, waiting.table.table_id);
  assert.equal(paired.table.status, 'TABLE_STATUS_PLAYING');
});

test('WatchTable', async () => {
  const watch = (request) => new Promise((resolve) => {
    const stream = mm.WatchTable(request, { deadline: Date.now() + 10000 });
    const events = [];
    stream.on('data', (event) => events.push(event));
    stream.on('error', (error) => resolve({ code: error.code, events }));
    stream.on('status', (s) => { if (s.code === S.OK) resolve({ code: S.OK, events }); });
  });
  assert.equal((await watch({ table_id: '' })).code, S.INVALID_ARGUMENT);
  assert.equal((await watch({ table_id: 'tnosuchtable' })).code, S.NOT_FOUND);
  const { table } = await create(person('w1'));
  assert.equal((await watch({ table_id: table.table_id, from_event_id: 'bad' })).code, S.INVALID_ARGUMENT);
  assert.equal((await watch({ table_id: table.table_id, from_event_id: '99999999999999-0' })).code, S.FAILED_PRECONDITION);
  await ok(mm, 'LeaveTable', { idempotency_key: key(), requester: person('w1'), table_id: table.table_id });
  const all = await watch({ table_id: table.table_id });
  assert.equal(all.code, S.OK);
  assert.equal(all.events[0].event, 'table_opened');
  assert.equal(all.events.at(-1).event, 'table_closed');
  for (const event of all.events) assert.equal(event.table.invite_code, '', 'no secret in events');
  const last = all.events.at(-1).event_id;
  const resumed = await watch({ table_id: table.table_id, from_event_id: last });
  assert.equal(resumed.code, S.OK);
  assert.equal(resumed.events.length, 0, 'resuming from TableClosed ends at once');
});
