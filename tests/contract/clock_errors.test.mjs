// Contract test of the clock's error codes, from outside: every code that
// docs/API.md and clock.proto document for every ClockService call is
// provoked against the real clock binary (on a private Redis, and one
// replica whose Redis is down for UNAVAILABLE), with @grpc/grpc-js and the
// .proto files loaded at run time. A refused request changes nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import { Cluster, freePort } from './lib/cluster.mjs';
import { repoRoot, codeName } from './lib/game_client.mjs';
import { codesFromApiTable, codesFromProto } from './lib/documented_codes.mjs';

const v1 = grpc.loadPackageDefinition(protoLoader.loadSync(['draughts/v1/clock.proto'], {
  includeDirs: [path.join(repoRoot, 'proto')],
  keepCase: true, enums: String, longs: String, defaults: true, oneofs: true,
})).draughts.v1;

function requiredBinary(variable) {
  const file = process.env[variable];
  if (!file || !fs.existsSync(file)) throw new Error(`${variable} must name the clock binary (ctest sets it)`);
  return file;
}

const cluster = new Cluster();
const clockBinary = requiredBinary('DRAUGHTS_CLOCK_BIN');
let live;  // a clock on the private Redis
let dead;  // a clock whose Redis is down

async function startClock(name, redis) {
  const args = [
    '--listen=127.0.0.1:0', '--metrics-port=-1', '--log-level=warn', '--drain=0s',
    `--redis=${redis}`, `--key-prefix=${cluster.keyPrefix}`,
    `--deadlines-stream=${cluster.keyPrefix}draughts:deadlines`,
    `--game-state=127.0.0.1:${await freePort()}`,
  ];
  const child = cluster.launch(name, clockBinary, args, {
    ASAN_OPTIONS: [process.env.ASAN_OPTIONS, 'detect_leaks=0'].filter(Boolean).join(':'),
  });
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
  return new v1.ClockService(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
}

function call(client, method, request) {
  return new Promise((resolve) => {
    client[method](request, { deadline: Date.now() + 15000 }, (error, response) => resolve({ error, response }));
  });
}

const documented = codesFromApiTable(undefined, 'ClockService');
const provoked = new Map();  // call -> Set of codes this file provoked

function expectCode(method, answer, code, message) {
  assert.ok(documented.get(method)?.has(code), `docs/API.md does not list ${code} for ClockService.${method}`);
  const got = answer.error ? codeName(answer.error.code) : 'OK';
  assert.equal(got, code, `${method}: expected ${code}, got ${got} (${answer.error?.details ?? ''})`);
  if (message) assert.match(answer.error.details, message);
  if (!provoked.has(method)) provoked.set(method, new Set());
  provoked.get(method).add(code);
}

const inAMinute = () => ({ seconds: String(Math.floor(Date.now() / 1000) + 60), nanos: 0 });
let serial = 0;
const gameId = () => `contract-clock-${process.pid}-${++serial}`;
const arm = (changes = {}) => ({
  game_id: gameId(), expected_ply: 4, color: 'COLOR_WHITE', deadline: inAMinute(),
  game_version: 9, human_seats: ['COLOR_WHITE'], ...changes,
});

before(async () => {
  await cluster.startRedis();
  [live, dead] = await Promise.all([
    startClock('clock', cluster.redisAddress),
    cluster.deadRedisAddress().then((address) => startClock('clock-dead-redis', address)),
  ]);
});

after(async () => {
  live?.close();
  dead?.close();
  await cluster.stop();
});

test('the docs table and clock.proto list the same codes for every call', () => {
  const fromProto = codesFromProto('clock.proto', 'ClockService');
  assert.deepEqual([...documented.keys()].sort(), [...fromProto.keys()].sort());
  for (const [method, codes] of fromProto) {
    assert.deepEqual([...documented.get(method)].sort(), [...codes].sort(), method);
  }
});

test('ArmDeadline: malformed requests are INVALID_ARGUMENT and arm nothing', async () => {
  const cases = [
    [{ game_id: '' }, /game_id/],
    [{ expected_ply: -1 }, /expected_ply/],
    [{ game_version: -3 }, /game_version/],
    [{ color: 'COLOR_UNSPECIFIED' }, /color/],
    [{ deadline: { seconds: String(Math.floor(Date.now() / 1000) + 2 * 86400), nanos: 0 } }, /1 day/],
  ];
  for (const [changes, message] of cases) {
    const request = arm(changes);
    expectCode('ArmDeadline', await call(live, 'ArmDeadline', request), 'INVALID_ARGUMENT', message);
    if (request.game_id) expectCode('GetClock', await call(live, 'GetClock', { game_id: request.game_id }), 'NOT_FOUND');
  }
});

test('ArmDeadline: a repeat is OK, an older game_version is ABORTED and changes nothing', async () => {
  const request = arm();
  assert.equal((await call(live, 'ArmDeadline', request)).error, null);
  assert.equal((await call(live, 'ArmDeadline', request)).error, null);
  expectCode('ArmDeadline', await call(live, 'ArmDeadline', { ...request, game_version: 8, expected_ply: 3 }), 'ABORTED', /older/);
  const { error, response } = await call(live, 'GetClock', { game_id: request.game_id });
  assert.equal(error, null);
  assert.equal(response.expected_ply, 4);
  assert.equal(response.armed, true);
  assert.deepEqual(response.presence.map((p) => p.color), ['COLOR_WHITE']);
});

test('CancelDeadline: malformed is INVALID_ARGUMENT, an unknown game is OK, the game is then NOT_FOUND', async () => {
  expectCode('CancelDeadline', await call(live, 'CancelDeadline', { game_id: '', expected_ply: 0 }), 'INVALID_ARGUMENT');
  expectCode('CancelDeadline', await call(live, 'CancelDeadline', { game_id: 'x', expected_ply: -1 }), 'INVALID_ARGUMENT');
  assert.equal((await call(live, 'CancelDeadline', { game_id: gameId(), expected_ply: 0 })).error, null);
  const request = arm();
  assert.equal((await call(live, 'ArmDeadline', request)).error, null);
  assert.equal((await call(live, 'CancelDeadline', { game_id: request.game_id, expected_ply: 4 })).error, null);
  expectCode('GetClock', await call(live, 'GetClock', { game_id: request.game_id }), 'NOT_FOUND');
  expectCode('Heartbeat', await call(live, 'Heartbeat', { game_id: request.game_id, color: 'COLOR_WHITE', connection_id: 'c' }), 'NOT_FOUND', /stop beating/);
});

test('GetClock: INVALID_ARGUMENT and NOT_FOUND', async () => {
  expectCode('GetClock', await call(live, 'GetClock', { game_id: '' }), 'INVALID_ARGUMENT');
  expectCode('GetClock', await call(live, 'GetClock', { game_id: gameId() }), 'NOT_FOUND');
});

test('Heartbeat: malformed, unknown game, a bot seat', async () => {
  const request = arm();
  assert.equal((await call(live, 'ArmDeadline', request)).error, null);
  const beat = { game_id: request.game_id, color: 'COLOR_WHITE', connection_id: 'tab-1' };
  for (const changes of [{ game_id: '' }, { connection_id: '' }, { color: 'COLOR_UNSPECIFIED' }]) {
    expectCode('Heartbeat', await call(live, 'Heartbeat', { ...beat, ...changes }), 'INVALID_ARGUMENT');
  }
  expectCode('Heartbeat', await call(live, 'Heartbeat', { ...beat, game_id: gameId() }), 'NOT_FOUND');
  expectCode('Heartbeat', await call(live, 'Heartbeat', { ...beat, color: 'COLOR_BLACK' }), 'FAILED_PRECONDITION', /bot/);
  const { error, response } = await call(live, 'Heartbeat', beat);
  assert.equal(error, null);
  assert.equal(response.connected, true);
  assert.ok(Number(response.interval.seconds) > 0);
  const view = await call(live, 'GetClock', { game_id: request.game_id });
  assert.equal(view.response.presence[0].connected, true);
  const closed = await call(live, 'Heartbeat', { ...beat, closing: true });
  assert.equal(closed.response.connected, false);
});

test('every call is UNAVAILABLE while the clock\'s Redis is down', async () => {
  const requests = {
    ArmDeadline: arm(),
    CancelDeadline: { game_id: gameId(), expected_ply: 0 },
    GetClock: { game_id: gameId() },
    Heartbeat: { game_id: gameId(), color: 'COLOR_WHITE', connection_id: 'c' },
  };
  for (const [method, request] of Object.entries(requests)) {
    expectCode(method, await call(dead, method, request), 'UNAVAILABLE');
  }
});

test('every documented code was provoked', () => {
  for (const [method, codes] of documented) {
    assert.deepEqual([...(provoked.get(method) ?? [])].sort(), [...codes].sort(), method);
  }
});
