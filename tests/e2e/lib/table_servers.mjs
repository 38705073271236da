// Starts everything a table in the browser needs, each on a free port in a
// private temp dir: redis-server, game_state, matchmaking, clock, bot, chat
// and the gateway (serving web/dist), with the tests-only short times
// (clock --allow-short-times and a short --abandon-after, matchmaking
// --allow-one-second-moves, an Easy bot that answers at once). Stops them
// whatever happens.
import {spawn, spawnSync} from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import {freePort, repoRoot} from './servers.mjs';

// The 2-minute rule as the tests shorten it.
export const ABANDON_AFTER_S = 4;

function binary(name, envName) {
  const buildDir = path.resolve(repoRoot, process.env.DRAUGHTS_BUILD_DIR || 'build/asan');
  const file = process.env[envName] || path.join(buildDir, `services/${name}/${name}`);
  if (!fs.existsSync(file)) throw new Error(`${name} binary not found at ${file}; build it (ninja ${name}) or set ${envName}`);
  return file;
}

function canConnect(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

async function waitFor(what, check, child, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}; log: ${child.logFile}`);
    try {
      if (await check()) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${what} did not start within ${timeoutMs} ms; log: ${child.logFile}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// The flags a binary knows (from --help), so the gateway gets the
// addresses of the services it has been taught to call, and no others.
function knownFlags(file) {
  const out = spawnSync(file, ['--help'], {timeout: 20000, encoding: 'utf8', env: {...process.env, ASAN_OPTIONS: 'detect_leaks=0'}});
  const text = `${out.stdout || ''}${out.stderr || ''}`;
  return new Set([...text.matchAll(/^\s+--([a-z0-9_-]+)/gm)].map((m) => m[1].replace(/_/g, '-')));
}

export class TableServers {
  constructor() {
    this.children = [];
  }

  launch(name, command, args) {
    const logFile = path.join(this.dir, `${name}.log`);
    const log = fs.openSync(logFile, 'a');
    // A sanitizer build reports leaks at exit; the tests judge the browser's view, not that.
    const child = spawn(command, args, {
      stdio: ['ignore', log, log],
      env: {...process.env, ASAN_OPTIONS: process.env.ASAN_OPTIONS || 'detect_leaks=0'},
    });
    fs.closeSync(log);
    child.logFile = logFile;
    this.children.push(child);
    return child;
  }

  async grpc(name, envName, args) {
    const port = await freePort();
    const child = this.launch(name, binary(name, envName), [`--listen=127.0.0.1:${port}`, '--metrics-port=-1', '--log-level=warn', ...args]);
    await waitFor(name, () => canConnect(port), child);
    return `127.0.0.1:${port}`;
  }

  // Starts them all; if one fails, stops those already started.
  async start() {
    try {
      return await this.startAll();
    } catch (e) {
      await this.stop({keepLogs: true});
      throw e;
    }
  }

  async startAll() {
    const redisServer = process.env.DRAUGHTS_TEST_REDIS_SERVER || '/usr/bin/redis-server';
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'draughts-e2e-table-'));
    const redisPort = await freePort();
    const redis = this.launch('redis', redisServer, [
      '--port', String(redisPort), '--bind', '127.0.0.1', '--dir', this.dir,
      '--save', '', '--appendonly', 'no', '--daemonize', 'no',
    ]);
    await waitFor('redis-server', () => canConnect(redisPort), redis);
    const r = `--redis=127.0.0.1:${redisPort}`;

    const gameState = await this.grpc('game_state', 'DRAUGHTS_GAME_STATE_BIN', [r, '--token-secret=e2e-table-secret-0123456789']);
    const gs = `--game-state=${gameState}`;
    const matchmaking = await this.grpc('matchmaking', 'DRAUGHTS_MATCHMAKING_BIN', [
      r, gs, '--token-secret=e2e-table-mm-secret-0123456789', '--allow-one-second-moves',
      '--password-memlimit-kib=64', '--sweep-interval=50ms',
    ]);
    const clock = await this.grpc('clock', 'DRAUGHTS_CLOCK_BIN', [
      r, gs, '--allow-short-times', `--abandon-after=${ABANDON_AFTER_S}s`, '--heartbeat-interval=1s',
      '--poll-interval=20ms', '--game-state-timeout=2s', '--claim-lease=3s',
    ]);
    await this.grpc('bot', 'DRAUGHTS_BOT_BIN', [r, gs, '--easy-pause=0s', '--hard-move-time=200ms', '--claim-idle=2s']);
    const chat = await this.grpc('chat', 'DRAUGHTS_CHAT_BIN', [r, gs, `--matchmaking=${matchmaking}`, '--rate-window=1s']);

    const gateway = binary('gateway', 'DRAUGHTS_GATEWAY_BIN');
    const known = knownFlags(gateway);
    const httpPort = await freePort();
    const wanted = {
      listen: `127.0.0.1:${httpPort}`,
      'metrics-port': '-1',
      redis: `127.0.0.1:${redisPort}`,
      'game-state': gameState,
      matchmaking,
      clock,
      chat,
      'web-root': path.join(repoRoot, 'web/dist'),
      'log-level': 'warn',
    };
    if (!known.has('listen')) throw new Error(`cannot read the gateway's flags from ${gateway} --help`);
    const args = Object.entries(wanted).filter(([flag]) => known.has(flag)).map(([flag, value]) => `--${flag}=${value}`);
    this.gateway = this.launch('gateway', gateway, args);
    this.baseUrl = `http://127.0.0.1:${httpPort}`;
    await waitFor('gateway', async () => (await fetch(`${this.baseUrl}/`)).ok, this.gateway);
    return this;
  }

  async stop({keepLogs = false} = {}) {
    const alive = this.children.filter((c) => c.exitCode === null && c.signalCode === null).reverse();
    for (const child of alive) child.kill('SIGTERM');
    await Promise.all(
      alive.map(
        (child) =>
          new Promise((resolve) => {
            const timer = setTimeout(() => {
              child.kill('SIGKILL');
              resolve();
            }, 10000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
          }),
      ),
    );
    this.children = [];
    if (this.dir && !keepLogs) fs.rmSync(this.dir, {recursive: true, force: true});
  }
}
