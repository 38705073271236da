// The servers of the lobby's browser tests: those of Servers (redis-server,
// game_state, the gateway serving web/dist) plus the matchmaking binary, the
// gateway pointed at it.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import {Servers, freePort, repoRoot} from './servers.mjs';

function binary(envName, relative, what) {
  const buildDir = path.resolve(repoRoot, process.env.DRAUGHTS_BUILD_DIR || 'build/asan');
  const file = process.env[envName] || path.join(buildDir, relative);
  if (!fs.existsSync(file)) throw new Error(`${what} not found at ${file}; build it or set ${envName}`);
  return file;
}

function listening(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

async function waitUntil(what, check, child, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}; log: ${child.logFile}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not start within ${timeoutMs} ms; log: ${child.logFile}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export class LobbyServers extends Servers {
  async start() {
    const gameState = binary('DRAUGHTS_GAME_STATE_BIN', 'services/game_state/game_state', 'game_state binary');
    const matchmaking = binary('DRAUGHTS_MATCHMAKING_BIN', 'services/matchmaking/matchmaking', 'matchmaking binary');
    const gateway = binary('DRAUGHTS_GATEWAY_BIN', 'services/gateway/gateway', 'gateway binary');
    const redisServer = process.env.DRAUGHTS_TEST_REDIS_SERVER || '/usr/bin/redis-server';
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'draughts-e2e-lobby-'));
    const env = {ASAN_OPTIONS: process.env.ASAN_OPTIONS || 'detect_leaks=0'};

    const redisPort = await freePort();
    const redis = this.launch('redis', redisServer, [
      '--port', String(redisPort), '--bind', '127.0.0.1', '--dir', this.dir,
      '--save', '', '--appendonly', 'no', '--daemonize', 'no',
    ]);
    await waitUntil('redis-server', () => listening(redisPort), redis);
    const redisAddr = `127.0.0.1:${redisPort}`;

    const gsPort = await freePort();
    const gs = this.launch('game_state', gameState, [
      `--listen=127.0.0.1:${gsPort}`, '--metrics-port=-1', `--redis=${redisAddr}`,
      '--token-secret=e2e-test-secret-0123456789', '--log-level=warn',
    ], env);
    await waitUntil('game_state', () => listening(gsPort), gs);

    const mmPort = await freePort();
    const mm = this.launch('matchmaking', matchmaking, [
      `--listen=127.0.0.1:${mmPort}`, '--metrics-port=-1', `--redis=${redisAddr}`,
      `--game-state=127.0.0.1:${gsPort}`, '--token-secret=e2e-matchmaking-secret-0123456789',
      '--log-level=warn',
    ], env);
    await waitUntil('matchmaking', () => listening(mmPort), mm);

    const httpPort = await freePort();
    this.gatewayCommand = [gateway, [
      `--listen=127.0.0.1:${httpPort}`, '--metrics-port=-1', `--redis=${redisAddr}`,
      `--game-state=127.0.0.1:${gsPort}`, `--matchmaking=127.0.0.1:${mmPort}`,
      `--web-root=${path.join(repoRoot, 'web/dist')}`, '--log-level=warn',
    ], env];
    this.baseUrl = `http://127.0.0.1:${httpPort}`;
    await this.startGateway();
    return this;
  }
}
