// A crowd on the gateway's hotseat game sockets (/ws/games/<id>): GAMES
// games, each with two player sockets (one per seat) and SPECTATORS more,
// moves paced at RATE per second over all games for SECONDS. Prints the
// gateway's threads and resident memory (idle, with every socket open, and
// after the run), the move round trip (a move sent -> its movePlayed event
// back on the mover's socket) p50/p95/p99, and checks that every socket of
// a game saw every one of its moves exactly once.
//
// Binaries from the environment (a Release tree; see run.sh):
// DRAUGHTS_GATEWAY_BIN, DRAUGHTS_GAME_STATE_BIN, DRAUGHTS_REDIS_SERVER.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { Cluster } from '../../contract/lib/cluster.mjs';

const require = createRequire(new URL('../../contract/package.json', import.meta.url));
const WebSocket = require('ws');

const GAMES = Number(process.env.GAMES ?? 400);
const SPECTATORS = Number(process.env.SPECTATORS ?? 1);
const RATE = Number(process.env.RATE ?? 500);
const SECONDS = Number(process.env.SECONDS ?? 20);
const WORKERS = process.env.WORKER_THREADS;

const cluster = new Cluster();

const startService = (name, binary, args) =>
  cluster.startService(name, binary, ['--listen=127.0.0.1:0', '--metrics-port=-1', '--log-level=warn', ...args]);

function procStatus(pid) {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? NaN);
  return { threads: field('Threads'), rssKiB: field('VmRSS') };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN);

let port;
async function post(route, cookie, body) {
  const headers = { Origin: `http://127.0.0.1:${port}`, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() };
  if (cookie) headers.Cookie = cookie;
  const response = await fetch(`http://127.0.0.1:${port}${route}`, { method: 'POST', headers, body: body ? JSON.stringify(body) : undefined });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${route}: ${response.status} ${text}`);
  return { body: JSON.parse(text), cookie: response.headers.get('set-cookie')?.split(';')[0] };
}

// One socket of a game: keeps the latest snapshot and counts moves seen.
function openSocket(game, stats) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/games/${game.id}`, {
      headers: { Cookie: game.cookie, Origin: `http://127.0.0.1:${port}` },
    });
    const socket = { ws, moves: new Map(), snapshot: null };
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type === 'snapshot') {
        socket.snapshot = frame;
        if (socket.onSnapshot) socket.onSnapshot();
      } else if (frame.type === 'event' && frame.event.movePlayed) {
        const ply = Number(frame.event.ply);
        socket.moves.set(ply, (socket.moves.get(ply) ?? 0) + 1);
        const sent = game.sentAt.get(ply);
        if (sent !== undefined && socket === game.sockets[game.moverOf.get(ply)]) {
          stats.roundTrips.push(performance.now() - sent);
          game.sentAt.delete(ply);
        }
      } else if (frame.type === 'error') {
        stats.errors.push(frame.error?.message ?? JSON.stringify(frame));
        // A refused move (a stale ply) must not stall its game.
        if (frame.requestId?.startsWith('p')) game.waiting = false;
      }
    });
    ws.on('close', (code) => { if (!stats.closing) stats.closes.push(code); });
    ws.once('open', () => resolve(socket));
    ws.once('error', reject);
  });
}

async function main() {
  const redis = await cluster.startRedis();
  const gameState = await startService('game-state', process.env.DRAUGHTS_GAME_STATE_BIN, [`--redis=${redis}`, `--token-secret=ts-${randomUUID()}`]);
  const gatewayArgs = [`--redis=${redis}`, `--game-state=127.0.0.1:${gameState.port}`,
    `--max-sockets=${GAMES * (2 + SPECTATORS) + 100}`, `--web-root=${path.resolve('web/dist')}`];
  if (WORKERS) gatewayArgs.push(`--worker-threads=${WORKERS}`);
  const gateway = await startService('gateway', process.env.DRAUGHTS_GATEWAY_BIN, gatewayArgs);
  port = gateway.port;
  const pid = gateway.child.pid;
  const report = { games: GAMES, spectatorsPerGame: SPECTATORS, rate: RATE, seconds: SECONDS };
  report.idle = procStatus(pid);

  const stats = { roundTrips: [], errors: [], closes: [], closing: false };
  const games = [];
  for (let i = 0; i < GAMES; ++i) {
    const { cookie } = await post('/api/session');
    const { body } = await post('/api/games', cookie, { variant: 'international', mode: 'hotseat' });
    games.push({ id: body.gameId, cookie, white: body.seats.white, black: body.seats.black,
      sockets: [], sentAt: new Map(), moverOf: new Map(), acked: 0, over: false, waiting: false });
  }
  const openStart = performance.now();
  for (const game of games) {
    for (let s = 0; s < 2 + SPECTATORS; ++s) game.sockets.push(await openSocket(game, stats));
  }
  const sockets = games.flatMap((g) => g.sockets);
  while (sockets.some((s) => !s.snapshot)) await sleep(50);
  report.openSeconds = (performance.now() - openStart) / 1000;
  report.sockets = sockets.length;
  await sleep(1000);
  report.open = procStatus(pid);
  report.rssPerSocketKiB = (report.open.rssKiB - report.idle.rssKiB) / sockets.length;

  // Each tick moves the games whose turn it is, round robin, RATE per second.
  let next = 0;
  let sent = 0;
  const start = performance.now();
  const deadline = start + SECONDS * 1000;
  const move = (game) => {
    // White plays on socket 0, black on socket 1.
    const mover = game.sockets[0].snapshot.game.sideToMove === 'COLOR_WHITE' ? 0 : 1;
    const { snapshot } = game.sockets[mover];
    if (snapshot.game.result !== 'GAME_RESULT_ONGOING' || snapshot.legalMoves.length === 0) { game.over = true; return false; }
    const ply = Number(snapshot.game.ply);
    const choice = snapshot.legalMoves[Math.floor(Math.random() * snapshot.legalMoves.length)];
    game.waiting = true;
    game.sentAt.set(ply + 1, performance.now());
    game.moverOf.set(ply + 1, mover);
    game.sockets[0].onSnapshot = () => {
      if (Number(game.sockets[0].snapshot.game.ply) > ply && Number(game.sockets[1].snapshot?.game.ply) > ply) game.waiting = false;
    };
    game.sockets[1].onSnapshot = game.sockets[0].onSnapshot;
    game.sockets[mover].ws.send(JSON.stringify({ requestId: `p${ply}`, action: 'move', token: mover === 0 ? game.white : game.black, move: choice.notation, expectedPly: ply }));
    ++sent;
    return true;
  };
  while (performance.now() < deadline) {
    const due = Math.floor(((performance.now() - start) / 1000) * RATE);
    let tries = 0;
    while (sent < due && tries < games.length) {
      const game = games[next];
      next = (next + 1) % games.length;
      ++tries;
      if (!game.over && !game.waiting) move(game);
    }
    await sleep(5);
  }
  const elapsed = (performance.now() - start) / 1000;
  report.during = procStatus(pid);
  await sleep(2000);  // the last moves' events

  const sorted = stats.roundTrips.slice().sort((a, b) => a - b);
  report.movesSent = sent;
  report.movesPerSecond = Math.round(sent / elapsed);
  report.roundTripMs = { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), p99: percentile(sorted, 0.99), max: sorted.at(-1), count: sorted.length };
  for (const key of Object.keys(report.roundTripMs)) report.roundTripMs[key] = Math.round(report.roundTripMs[key] * 10) / 10;
  // Every socket of a game saw each of its moves once.
  let missing = 0;
  let duplicated = 0;
  for (const game of games) {
    const plies = new Set(game.sockets.flatMap((s) => [...s.moves.keys()]));
    for (const socket of game.sockets) {
      for (const ply of plies) {
        const seen = socket.moves.get(ply) ?? 0;
        if (seen === 0) ++missing;
        if (seen > 1) ++duplicated;
      }
    }
  }
  report.eventsMissing = missing;
  report.eventsDuplicated = duplicated;
  report.errors = stats.errors.length;
  report.firstErrors = stats.errors.slice(0, 3);
  report.unexpectedCloses = stats.closes.length;
  report.loadavg = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  stats.closing = true;
  for (const socket of sockets) socket.ws.terminate();
  console.log(JSON.stringify(report, null, 2));
}

try {
  await main();
} finally {
  await cluster.stop().catch((e) => console.error(e.message));
}
