// Starts the real servers an end-to-end test needs, each on a free port in a
// private temp dir: redis-server, the game_state binary and the gateway
// binary (serving web/dist), and stops them whatever happens.
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

// A port nobody listens on right now (the kernel picks it).
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address();
      server.close(() => resolve(port));
    });
  });
}

function requireFile(file, what) {
  if (!fs.existsSync(file)) {
    throw new Error(`${what} not found at ${file}; build it (ninja game_state gateway) or set DRAUGHTS_BUILD_DIR`);
  }
  return file;
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

// The command lines of the two binaries, each in one place.
function gameStateFlags({grpcPort, redisAddr}) {
  return [
    `--listen=127.0.0.1:${grpcPort}`, '--metrics-port=-1', `--redis=${redisAddr}`,
    '--token-secret=e2e-test-secret-0123456789', '--log-level=warn',
  ];
}

function gatewayFlags({httpPort, grpcPort, redisAddr}) {
  return [
    `--listen=127.0.0.1:${httpPort}`, '--metrics-port=-1', `--redis=${redisAddr}`,
    `--game-state=127.0.0.1:${grpcPort}`, `--web-root=${path.join(repoRoot, 'web/dist')}`,
    '--log-level=warn',
  ];
}

export class Servers {
  constructor() {
    this.children = [];
  }

  launch(name, command, args, extraEnv = {}) {
    const logFile = path.join(this.dir, `${name}.log`);
    const log = fs.openSync(logFile, 'a');
    const child = spawn(command, args, {
      stdio: ['ignore', log, log],
      env: {...process.env, ...extraEnv},
    });
    fs.closeSync(log);
    child.logFile = logFile;
    child.name = name;
    this.children.push(child);
    return child;
  }

  async start() {
    const buildDir = path.resolve(repoRoot, process.env.DRAUGHTS_BUILD_DIR || 'build/asan');
    const gameState = requireFile(
      process.env.DRAUGHTS_GAME_STATE_BIN || path.join(buildDir, 'services/game_state/game_state'),
      'game_state binary',
    );
    const gateway = requireFile(
      process.env.DRAUGHTS_GATEWAY_BIN || path.join(buildDir, 'services/gateway/gateway'),
      'gateway binary',
    );
    const redisServer = process.env.DRAUGHTS_TEST_REDIS_SERVER || '/usr/bin/redis-server';
    requireFile(redisServer, 'redis-server');
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'draughts-e2e-'));

    const redisPort = await freePort();
    const redis = this.launch('redis', redisServer, [
      '--port', String(redisPort), '--bind', '127.0.0.1', '--dir', this.dir,
      '--save', '', '--appendonly', 'no', '--daemonize', 'no',
    ]);
    await waitFor('redis-server', () => canConnect(redisPort), redis);
    const redisAddr = `127.0.0.1:${redisPort}`;

    const grpcPort = await freePort();
    // A sanitizer build reports leaks at exit; the test judges the browser's view, not that.
    const sanitizerEnv = {ASAN_OPTIONS: process.env.ASAN_OPTIONS || 'detect_leaks=0'};
    const gs = this.launch('game_state', gameState, gameStateFlags({grpcPort, redisAddr}), sanitizerEnv);
    await waitFor('game_state', () => canConnect(grpcPort), gs);

    const httpPort = await freePort();
    this.gatewayCommand = [gateway, gatewayFlags({httpPort, grpcPort, redisAddr}), sanitizerEnv];
    this.baseUrl = `http://127.0.0.1:${httpPort}`;
    await this.startGateway();
    return this;
  }

  async startGateway() {
    this.gateway = this.launch('gateway', ...this.gatewayCommand);
    await waitFor('gateway', async () => (await fetch(`${this.baseUrl}/`)).ok, this.gateway);
  }

  // Stops the gateway (SIGTERM: it closes its sockets with 1001) and starts it
  // again on the same port: what a browser sees when its connection drops.
  async restartGateway() {
    const old = this.gateway;
    const exited = new Promise((resolve) => old.once('exit', resolve));
    old.kill('SIGTERM');
    const killer = setTimeout(() => old.kill('SIGKILL'), 15000);
    await exited;
    clearTimeout(killer);
    this.children = this.children.filter((c) => c !== old);
    await this.startGateway();
  }

  // keepLogs: leave the temp dir (server logs) for a failed run to be read.
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
            }, 15000);
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
