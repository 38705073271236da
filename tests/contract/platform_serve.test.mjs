// Contract test of platform::Serve with an independent client (Node's
// @grpc/grpc-js): a C++ fixture serving through Serve must answer
// grpc.health.v1 Health/Check, list its services through server reflection
// (grpc.reflection.v1alpha), expose RPC metrics, and on SIGTERM report
// NOT_SERVING while draining, then exit 0. Its health follows its readiness
// probes (a fake dependency: a file whose presence means "down").
//
// DRAUGHTS_SERVE_FIXTURE: path of the platform_serve_fixture binary (set by ctest).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = process.env.DRAUGHTS_SERVE_FIXTURE;
const DRAIN_MS = 1500;

const packageDefinition = protoLoader.loadSync(
  ['grpc/health/v1/health.proto', 'grpc/reflection/v1alpha/reflection.proto', 'platform/testing/echo.proto'],
  {
    includeDirs: [path.join(here, 'protos'), path.join(here, '..', '..', 'libs')],
    keepCase: true,
    enums: String,
    defaults: true,
    oneofs: true,
  },
);
const proto = grpc.loadPackageDefinition(packageDefinition);

const children = [];
after(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

function requireFixture() {
  assert.ok(fixture, 'environment variable DRAUGHTS_SERVE_FIXTURE is not set (ctest sets it to platform_serve_fixture)');
}

// Starts the fixture and resolves with its ports once it prints them.
async function startFixture(args) {
  const child = spawn(fixture, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const ports = await new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`fixture did not report its port; stderr:\n${stderr}`)), 30000);
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /PORT=(\d+) METRICS_PORT=(-?\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({ grpc: Number(match[1]), metrics: Number(match[2]) });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`fixture exited early with ${code}; stderr:\n${stderr}`));
    });
  });
  return { child, ports, stderr: () => stderr };
}

function unary(client, method, request, deadlineMs = 3000) {
  return new Promise((resolve) => {
    client[method](request, { deadline: Date.now() + deadlineMs }, (error, response) => resolve({ error, response }));
  });
}

function listServices(address) {
  const client = new proto.grpc.reflection.v1alpha.ServerReflection(address, grpc.credentials.createInsecure());
  return new Promise((resolve, reject) => {
    const call = client.ServerReflectionInfo();
    call.on('data', (response) => {
      if (response.message_response === 'error_response') {
        reject(new Error(response.error_response.error_message));
      } else {
        resolve(response.list_services_response.service.map((s) => s.name));
      }
      call.end();
    });
    call.on('error', reject);
    call.write({ list_services: '*' });
  }).finally(() => client.close());
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test('Serve: health, reflection, metrics, then drain on SIGTERM and exit 0', async () => {
  requireFixture();
  const { child, ports, stderr } = await startFixture([
    '--listen=127.0.0.1:0', `--drain=${DRAIN_MS}ms`, '--shutdown-timeout=2s', '--metrics-port=0',
  ]);
  assert.ok(ports.grpc > 0);
  assert.ok(ports.metrics > 0);
  const address = `127.0.0.1:${ports.grpc}`;
  const health = new proto.grpc.health.v1.Health(address, grpc.credentials.createInsecure());
  const echo = new proto.draughts.platform.testing.EchoService(address, grpc.credentials.createInsecure());

  // Health/Check: the server as a whole and each service by name.
  let answer = await unary(health, 'Check', { service: '' });
  assert.equal(answer.error, null);
  assert.equal(answer.response.status, 'SERVING');
  answer = await unary(health, 'Check', { service: 'draughts.platform.testing.EchoService' });
  assert.equal(answer.response.status, 'SERVING');
  answer = await unary(health, 'Check', { service: 'no.such.Service' });
  assert.equal(answer.error?.code, grpc.status.NOT_FOUND);

  // Reflection lists what is served, health included.
  const services = await listServices(address);
  assert.ok(services.includes('grpc.health.v1.Health'), `services: ${services}`);
  assert.ok(services.includes('draughts.platform.testing.EchoService'), `services: ${services}`);
  assert.ok(services.includes('grpc.reflection.v1alpha.ServerReflection'), `services: ${services}`);

  // A real call, and its trace in the Prometheus metrics.
  answer = await unary(echo, 'Echo', { text: 'hello' });
  assert.equal(answer.error, null);
  assert.equal(answer.response.text, 'hello');
  answer = await unary(echo, 'Echo', { text: 'x', fail_with_code: grpc.status.ABORTED });
  assert.equal(answer.error?.code, grpc.status.ABORTED);
  const metrics = await (await fetch(`http://127.0.0.1:${ports.metrics}/metrics`)).text();
  const series = (code) => new RegExp(
    `^draughts_rpc_server_handled_total\\{(?=[^}]*code="${code}")(?=[^}]*method="/draughts\\.platform\\.testing\\.EchoService/Echo")[^}]*\\} 1$`, 'm');
  assert.match(metrics, series('OK'));
  assert.match(metrics, series('ABORTED'));
  assert.match(metrics, /^draughts_rpc_server_handling_seconds_count\{method="\/grpc\.health\.v1\.Health\/Check"\} 3$/m);

  // Watch sees the switch to NOT_SERVING as it happens.
  const watched = [];
  const watch = health.Watch({ service: '' });
  watch.on('data', (response) => watched.push(response.status));
  watch.on('error', () => {});  // the stream ends when the server stops
  while (watched.length === 0) await sleep(20);
  assert.equal(watched[0], 'SERVING');

  const exited = once(child, 'exit');
  const signalledAt = Date.now();
  child.kill('SIGTERM');

  // During the drain: NOT_SERVING (or, at the very end, unavailable), and
  // real calls are still answered.
  const observed = [];
  let echoDuringDrain = null;
  while (Date.now() - signalledAt < DRAIN_MS - 300) {
    const check = await unary(health, 'Check', { service: '' }, 1000);
    observed.push(check.error ? `error:${check.error.code}` : check.response.status);
    if (echoDuringDrain === null && observed.at(-1) === 'NOT_SERVING') {
      echoDuringDrain = await unary(echo, 'Echo', { text: 'still here' }, 1000);
    }
    await sleep(100);
  }
  // The signal is handled asynchronously, so the first answers may still be
  // SERVING; once NOT_SERVING is seen it must never flip back.
  const firstDown = observed.indexOf('NOT_SERVING');
  assert.ok(firstDown >= 0, `observed ${observed}`);
  for (const [i, status] of observed.entries()) {
    const allowed = i < firstDown ? ['SERVING'] : ['NOT_SERVING', `error:${grpc.status.UNAVAILABLE}`];
    assert.ok(allowed.includes(status), `observed ${observed}`);
  }
  assert.ok(echoDuringDrain, 'no Echo call was made while NOT_SERVING');
  assert.equal(echoDuringDrain.error, null);
  assert.equal(echoDuringDrain.response.text, 'still here');

  const [code, signal] = await exited;
  const tookMs = Date.now() - signalledAt;
  assert.equal(signal, null, `killed by ${signal}; stderr:\n${stderr()}`);
  assert.equal(code, 0, `stderr:\n${stderr()}`);
  assert.ok(tookMs >= DRAIN_MS - 100, `exited after ${tookMs} ms, before the ${DRAIN_MS} ms drain`);
  assert.ok(watched.includes('NOT_SERVING'), `watched ${watched}`);
  assert.match(stderr(), /msg="shutdown requested: NOT_SERVING, draining" signal=15/);

  // Gone for good.
  answer = await unary(health, 'Check', { service: '' }, 1000);
  assert.ok(answer.error, 'server still answering after exit');
  assert.ok([grpc.status.UNAVAILABLE, grpc.status.DEADLINE_EXCEEDED].includes(answer.error.code));
  health.close();
  echo.close();
});

test('Serve: health is NOT_SERVING while a dependency is down, SERVING when it is back', async () => {
  requireFixture();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'draughts-serve-'));
  const unready = path.join(dir, 'redis-down');
  const { child, ports, stderr } = await startFixture([
    '--listen=127.0.0.1:0', '--drain=0s', '--readiness-interval=100ms', `--unready-file=${unready}`,
  ]);
  const address = `127.0.0.1:${ports.grpc}`;
  const health = new proto.grpc.health.v1.Health(address, grpc.credentials.createInsecure());
  const echo = new proto.draughts.platform.testing.EchoService(address, grpc.credentials.createInsecure());
  const statuses = async () => Promise.all(['', 'draughts.platform.testing.EchoService'].map(
    async (service) => (await unary(health, 'Check', { service })).response?.status));
  const until = async (want) => {
    const deadline = Date.now() + 5000;
    let seen;
    while (Date.now() < deadline) {
      seen = await statuses();
      if (seen.every((s) => s === want)) return;
      await sleep(50);
    }
    assert.fail(`health stayed ${seen}, wanted ${want}`);
  };
  try {
    await until('SERVING');
    fs.writeFileSync(unready, '');
    await until('NOT_SERVING');
    // Not ready is not dead: calls are still answered.
    const answer = await unary(echo, 'Echo', { text: 'degraded' });
    assert.equal(answer.error, null);
    await sleep(500);  // several checks while down: still one log line
    fs.unlinkSync(unready);
    await until('SERVING');
    assert.equal(stderr().match(/dependency unavailable/g)?.length, 1, stderr());
    assert.match(stderr(), /dependency=unready-file/);
    assert.equal(stderr().match(/answer again: SERVING/g)?.length, 1, stderr());
  } finally {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = await exited;
    assert.equal(code, 0, stderr());
    health.close();
    echo.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('Serve fixture: --help exits 0, an unknown flag is a clear error', async () => {
  requireFixture();
  const run = async (args) => {
    const child = spawn(fixture, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    const [code] = await once(child, 'exit');
    return { code, out, err };
  };
  const help = await run(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.out, /--listen <string>\s+\[env DRAUGHTS_FIXTURE_LISTEN\]/);
  assert.match(help.out, /--drain <duration>/);

  const bad = await run(['--bogus=1']);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /unknown flag --bogus/);
});
