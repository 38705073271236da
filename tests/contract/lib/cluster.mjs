// The processes a game_state contract test talks to: a private redis-server
// on a free port and game_state replicas sharing it (same token secret and
// key prefix), plus, on request, a replica whose Redis is down. Everything
// started here is stopped by stop(), whatever happened.
//
// DRAUGHTS_GAME_STATE_BIN: the game_state binary; DRAUGHTS_REDIS_SERVER: the
// redis-server binary. tests/contract/CMakeLists.txt sets both.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

function requiredBinary(variable) {
  const file = process.env[variable];
  if (!file) throw new Error(`environment variable ${variable} is not set (ctest sets it; see tests/contract/CMakeLists.txt)`);
  if (!fs.existsSync(file)) throw new Error(`${variable}=${file} does not exist: build it first`);
  return file;
}

// A loopback port nobody listens on right now (the kernel picks it).
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function canConnect(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('connect', () => { socket.destroy(); resolve(true); });
    socket.on('error', () => resolve(false));
  });
}

// The whole game_state command line, in one place. --listen on port 0 makes
// the binary print `LISTENING <port>`.
export function gameStateArgs({ redis, tokenSecret, keyPrefix }) {
  return [
    '--listen=127.0.0.1:0',
    '--metrics-port=-1',
    '--log-level=warn',
    '--drain=0s',
    `--redis=${redis}`,
    `--token-secret=${tokenSecret}`,
    `--key-prefix=${keyPrefix}`,
  ];
}

export class Cluster {
  constructor() {
    this.children = [];
    this.gameStateBinary = requiredBinary('DRAUGHTS_GAME_STATE_BIN');
    this.redisServerBinary = requiredBinary('DRAUGHTS_REDIS_SERVER');
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'draughts-contract-'));
    this.tokenSecret = `contract-${randomBytes(12).toString('hex')}`;
    this.keyPrefix = `contract-${randomBytes(4).toString('hex')}:`;
  }

  launch(name, command, args, env = {}) {
    const logFile = path.join(this.dir, `${name}.log`);
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', fs.openSync(logFile, 'a')],
      env: { ...process.env, ...env },
    });
    child.name = name;
    child.logFile = logFile;
    this.children.push(child);
    return child;
  }

  log(child) {
    try {
      return fs.readFileSync(child.logFile, 'utf8').slice(-4000);
    } catch {
      return '';
    }
  }

  async startRedis() {
    const port = await freePort();
    const redis = this.launch('redis', this.redisServerBinary, [
      '--port', String(port), '--bind', '127.0.0.1', '--dir', this.dir,
      '--save', '', '--appendonly', 'no', '--daemonize', 'no',
    ]);
    const deadline = Date.now() + 20000;
    while (!(await canConnect(port))) {
      if (redis.exitCode !== null) throw new Error(`redis-server exited (${redis.exitCode}): ${this.log(redis)}`);
      if (Date.now() > deadline) throw new Error('redis-server did not start listening');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    this.redisAddress = `127.0.0.1:${port}`;
    return this.redisAddress;
  }

  // Starts a replica on `redis` (default: the cluster's) and resolves with
  // its address once it prints `LISTENING <port>`.
  async startReplica(name, redis = this.redisAddress) {
    const args = gameStateArgs({
      redis, tokenSecret: this.tokenSecret, keyPrefix: this.keyPrefix,
    });
    // A sanitizer build reports leaks at exit; these tests judge the API
    // (and any other sanitizer error still fails the exit status below).
    const child = this.launch(name, this.gameStateBinary, args, {
      ASAN_OPTIONS: [process.env.ASAN_OPTIONS, 'detect_leaks=0'].filter(Boolean).join(':'),
    });
    child.isReplica = true;
    const port = await this.listening(child, args);
    return { name, child, address: `127.0.0.1:${port}` };
  }

  // Starts any service binary with `args` (which should hold
  // --listen=127.0.0.1:0) and resolves with { child, port } once it prints
  // `LISTENING <port>`; stop() ends it like a replica.
  async startService(name, binary, args, env = {}) {
    const child = this.launch(name, binary, args, env);
    child.isReplica = true;
    return { child, port: await this.listening(child, args) };
  }

  // Starts the binary named by the environment variable `variable` (set by
  // tests/contract/CMakeLists.txt) on a free loopback port, without metrics
  // and quiet, and resolves with its address once it listens.
  async startServiceFromEnv(name, variable, args) {
    const binary = process.env[variable];
    if (!binary) throw new Error(`${variable} is not set (see tests/contract/CMakeLists.txt)`);
    const { port } = await this.startService(name, binary,
      ['--listen=127.0.0.1:0', '--metrics-port=-1', '--log-level=warn', ...args],
      { ASAN_OPTIONS: [process.env.ASAN_OPTIONS, 'detect_leaks=0'].filter(Boolean).join(':') });
    return `127.0.0.1:${port}`;
  }

  // The port `child` prints in its `LISTENING <port>` line.
  async listening(child, args) {
    const { name } = child;
    const port = await new Promise((resolve, reject) => {
      let stdout = '';
      const timer = setTimeout(() => reject(new Error(`${name} did not print LISTENING within 60 s: ${this.log(child)}`)), 60000);
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        const match = /LISTENING (\d+)/.exec(stdout);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited with ${code} before listening (${args.join(' ')}): ${this.log(child)}`));
      });
    });
    child.stdout.resume();
    return port;
  }

  // A Redis address where nothing listens: every call needing Redis fails.
  async deadRedisAddress() {
    return `127.0.0.1:${await freePort()}`;
  }

  // SIGTERM, then SIGKILL after `graceMs`; resolves with [code, signal].
  async terminate(child, graceMs = 15000) {
    if (child.exitCode !== null || child.signalCode !== null) return [child.exitCode, child.signalCode];
    child.terminated = true;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    const result = await exited;
    clearTimeout(killer);
    return result;
  }

  // Stops everything; throws (keeping the logs) if a replica died on its
  // own during the tests or did not stop cleanly on SIGTERM.
  async stop() {
    const died = this.children.filter((c) => c.isReplica && !c.terminated && (c.exitCode !== null || c.signalCode !== null));
    const alive = this.children.filter((c) => c.exitCode === null && c.signalCode === null).reverse();
    const results = await Promise.all(alive.map(async (child) => [child, await this.terminate(child)]));
    const unclean = results.filter(([child, [code, signal]]) => child.isReplica && (code !== 0 || signal !== null));
    const failed = [...died, ...unclean.map(([child]) => child)];
    this.children = [];
    if (failed.length > 0) {
      throw new Error(failed.map((c) => `${c.name} ended with code ${c.exitCode} signal ${c.signalCode} (log ${c.logFile}):\n${this.log(c)}`).join('\n'));
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
