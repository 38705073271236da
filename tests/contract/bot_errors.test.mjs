// Contract test of BotService from outside: the real bot binary (on a
// private Redis) asked by an independent client for every error code
// docs/API.md and bot.proto document for ChooseMove and ListEngines, and
// the answers' documented shape (reproducible seeds, Hard's time budget,
// pagination). The codes asserted are checked against the docs' table.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import { Cluster } from './lib/cluster.mjs';
import { repoRoot } from './lib/game_client.mjs';

const packageDefinition = protoLoader.loadSync(['draughts/v1/bot.proto'], {
  includeDirs: [path.join(repoRoot, 'proto')],
  keepCase: true, enums: String, longs: String, defaults: true, oneofs: true,
});
const v1 = grpc.loadPackageDefinition(packageDefinition).draughts.v1;
const codeName = (code) => Object.keys(grpc.status).find((name) => grpc.status[name] === code);

// BotService rows of the "Error codes per call" table of docs/API.md.
function documentedCodes() {
  const lines = fs.readFileSync(path.join(repoRoot, 'docs/API.md'), 'utf8').split('\n');
  const header = lines.findIndex((line) => /^\|\s*call\s*\|/.test(line));
  const cells = (line) => line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
  const codes = cells(lines[header]).slice(1);
  const table = new Map();
  let inBot = false;
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [call, ...marks] = cells(line);
    const section = /^\*\*(\w+)\*\*$/.exec(call);
    if (section) { inBot = section[1] === 'BotService'; continue; }
    if (inBot) table.set(call.replace(/`/g, ''), new Set(codes.filter((_, i) => marks[i] === 'x')));
  }
  return table;
}
const documented = documentedCodes();
const seen = new Map();

const cluster = new Cluster();
let client;
let busyClient;

async function startBot(name, extraArgs) {
  const child = cluster.launch(name, process.env.DRAUGHTS_BOT_BIN, [
    '--listen=127.0.0.1:0', '--metrics-port=-1', '--log-level=warn', '--drain=0s',
    `--redis=${cluster.redisAddress}`, '--game-state=127.0.0.1:1', `--consumer-name=${name}`,
    ...extraArgs,
  ], { ASAN_OPTIONS: [process.env.ASAN_OPTIONS, 'detect_leaks=0'].filter(Boolean).join(':') });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${cluster.log(child)}`)), 60000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /LISTENING (\d+)/.exec(out);
      if (match) { clearTimeout(timer); resolve(Number(match[1])); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${name} exited ${code}: ${cluster.log(child)}`)); });
  });
  child.stdout.resume();
  return new v1.BotService(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
}

function call(stub, method, request) {
  return new Promise((resolve) => {
    stub[method](request, { deadline: Date.now() + 20000 }, (error, response) => resolve({ error, response }));
  });
}

async function expectCode(stub, method, request, code, messagePart) {
  const { error } = await call(stub, method, request);
  assert.ok(error, `${method} ${JSON.stringify(request)} succeeded, expected ${code}`);
  assert.equal(codeName(error.code), code, `${method}: ${error.details}`);
  if (messagePart) assert.match(error.details, messagePart);
  assert.ok(documented.get(method)?.has(code), `docs/API.md does not list ${code} for ${method}`);
  if (!seen.has(method)) seen.set(method, new Set());
  seen.get(method).add(code);
  return error;
}

before(async () => {
  await cluster.startRedis();
  const dir = fs.mkdtempSync(path.join(cluster.dir, 'engines-'));
  const config = path.join(dir, 'engines.conf');
  fs.writeFileSync(config, 'engine id=broken command="/bin/false" variants=international move-time=200ms\n');
  client = await startBot('bot', [`--engines=${config}`, '--search-threads=2']);
  busyClient = await startBot('bot-one-thread', ['--search-threads=1']);
});

after(async () => {
  client?.close();
  busyClient?.close();
  await cluster.stop();
});

const start = { variant: 'international', level: 'BOT_LEVEL_MEDIUM' };

test('ChooseMove: INVALID_ARGUMENT for every malformed request', async () => {
  await expectCode(client, 'ChooseMove', { ...start, variant: 'nope' }, 'INVALID_ARGUMENT', /nope/);
  await expectCode(client, 'ChooseMove', { ...start, options: { mandatory_capture: false } }, 'INVALID_ARGUMENT');
  await expectCode(client, 'ChooseMove', { ...start, fen: 'W:W99:B1' }, 'INVALID_ARGUMENT', /fen/);
  await expectCode(client, 'ChooseMove', { ...start, moves: ['32-28', '32-28'] }, 'INVALID_ARGUMENT', /move 2 \(32-28\)/);
  await expectCode(client, 'ChooseMove', { variant: 'international' }, 'INVALID_ARGUMENT', /level/);
  await expectCode(client, 'ChooseMove', { ...start, time_budget: { seconds: -1 } }, 'INVALID_ARGUMENT');
  await expectCode(client, 'ChooseMove', { ...start, time_budget: { seconds: 61 } }, 'INVALID_ARGUMENT', /60/);
});

test('ChooseMove: NOT_FOUND for an unknown engine, FAILED_PRECONDITION when the game is over', async () => {
  await expectCode(client, 'ChooseMove', { variant: 'international', engine_id: 'no-such-engine' }, 'NOT_FOUND', /no-such-engine/);
  // White to move with no piece left: the game is over.
  await expectCode(client, 'ChooseMove', { ...start, fen: 'W:W:B1,2' }, 'FAILED_PRECONDITION');
});

test('ChooseMove: UNAVAILABLE when the external engine does not answer', async () => {
  await expectCode(client, 'ChooseMove', { variant: 'international', engine_id: 'broken' }, 'UNAVAILABLE', /broken/);
});

test('ChooseMove: RESOURCE_EXHAUSTED while every search thread is busy', async () => {
  const long = call(busyClient, 'ChooseMove', { ...start, level: 'BOT_LEVEL_HARD', time_budget: { seconds: 3 } });
  await new Promise((resolve) => setTimeout(resolve, 500));
  await expectCode(busyClient, 'ChooseMove', start, 'RESOURCE_EXHAUSTED', /busy/);
  const { error, response } = await long;
  assert.equal(error, null);
  assert.ok(response.move);
});

test('ChooseMove: a legal move with its line; the same seed gives the same move; Hard keeps its budget', async () => {
  const asked = { variant: 'english', level: 'BOT_LEVEL_EASY', moves: ['11-15', '23-19'], seed: '42' };
  const first = await call(client, 'ChooseMove', asked);
  assert.equal(first.error, null);
  assert.match(first.response.move, /^\d+(-\d+|(x\d+)+)$/);
  assert.equal(first.response.principal_variation[0], first.response.move);
  for (let i = 0; i < 3; i++) {
    const again = await call(client, 'ChooseMove', asked);
    assert.equal(again.response.move, first.response.move);
  }
  const hard = await call(client, 'ChooseMove', { ...start, level: 'BOT_LEVEL_HARD', time_budget: { nanos: 300000000 } });
  assert.equal(hard.error, null);
  const elapsedMs = Number(hard.response.elapsed.seconds) * 1000 + hard.response.elapsed.nanos / 1e6;
  assert.ok(elapsedMs <= 600, `Hard took ${elapsedMs} ms for a 300 ms budget`);
  assert.ok(hard.response.depth > 0);
});

test('ListEngines: built-in levels first, then external engines; pages; INVALID_ARGUMENT', async () => {
  const all = await call(client, 'ListEngines', {});
  assert.equal(all.error, null);
  assert.deepEqual(all.response.engines.map((e) => e.engine_id),
    ['builtin-easy', 'builtin-medium', 'builtin-hard', 'broken']);
  assert.deepEqual(all.response.engines.map((e) => e.kind),
    ['ENGINE_KIND_BUILTIN', 'ENGINE_KIND_BUILTIN', 'ENGINE_KIND_BUILTIN', 'ENGINE_KIND_HUB']);
  assert.equal(all.response.next_page_token, '');

  const english = await call(client, 'ListEngines', { variant: 'english' });
  assert.deepEqual(english.response.engines.map((e) => e.engine_id), ['builtin-easy', 'builtin-medium', 'builtin-hard']);

  const first = await call(client, 'ListEngines', { page_size: 3 });
  assert.equal(first.response.engines.length, 3);
  assert.notEqual(first.response.next_page_token, '');
  const second = await call(client, 'ListEngines', { page_size: 3, page_token: first.response.next_page_token });
  assert.deepEqual(second.response.engines.map((e) => e.engine_id), ['broken']);
  assert.equal(second.response.next_page_token, '');

  await expectCode(client, 'ListEngines', { page_size: -1 }, 'INVALID_ARGUMENT');
  await expectCode(client, 'ListEngines', { page_token: 'garbage!' }, 'INVALID_ARGUMENT');
  await expectCode(client, 'ListEngines', { page_size: 3, page_token: first.response.next_page_token, variant: 'english' }, 'INVALID_ARGUMENT');
});

test('every documented code but UNAVAILABLE (draining) was provoked', () => {
  for (const [method, codes] of documented) {
    const missing = [...codes].filter((code) => code !== 'UNAVAILABLE' || method === 'ChooseMove')
      .filter((code) => !seen.get(method)?.has(code));
    assert.deepEqual(missing, [], `${method}: documented codes never provoked`);
  }
});
