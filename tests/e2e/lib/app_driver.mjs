// Drives the web client in a real browser (Debian's chromium through
// playwright-core) the way a player does: clicks, taps and drags on squares.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {createRequire} from 'node:module';
import os from 'node:os';
import path from 'node:path';

import {repoRoot} from './servers.mjs';

const require = createRequire(import.meta.url);
let chromium;
try {
  ({chromium} = require('playwright-core'));
} catch (e) {
  throw new Error(`playwright-core is missing: run "npm ci" in tests/e2e (scripts/deps does) (${e.message})`);
}

const CHROMIUM = process.env.DRAUGHTS_CHROMIUM || '/usr/bin/chromium';
const STEP_TIMEOUT_MS = 20000;

export const screenshotDir = path.resolve(
  repoRoot,
  process.env.DRAUGHTS_E2E_SCREENSHOTS || 'build/e2e-screenshots',
);

// One browser with a fresh profile; its own cookies and localStorage.
// touch: a phone (touch screen, mobile viewport); squares are then tapped, not clicked.
export async function openBrowser(viewport = {width: 1000, height: 1100}, {touch = false} = {}) {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`chromium not found at ${CHROMIUM} (apt-get install -y chromium)`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'draughts-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    hasTouch: touch,
    isMobile: touch,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  const errors = [];
  const page = context.pages()[0] || (await context.newPage());
  page.on('pageerror', (e) => errors.push(e.message));
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  page.useTouch = touch;
  return {
    context,
    page,
    errors,
    async close() {
      await context.close();
      fs.rmSync(profile, {recursive: true, force: true});
    },
  };
}

export async function screenshot(page, name) {
  fs.mkdirSync(screenshotDir, {recursive: true});
  await page.screenshot({path: path.join(screenshotDir, `${name}.png`), fullPage: true});
}

// From the start page: picks the rule set and starts a hotseat game.
export async function startHotseat(page, baseUrl, variant) {
  await page.goto(`${baseUrl}/`);
  await page.waitForSelector('#start-view:not([hidden]), #game-view:not([hidden])');
  if (await page.isVisible('#game-view')) {
    await page.click('#new-game');
    await page.waitForSelector('#start-view:not([hidden])');
  }
  await page.selectOption('#variant', variant);
  const create = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/games');
  await page.click('#start');
  // Every create carries an idempotency key (docs/WEB_PROTOCOL.md), so a retry makes no second game.
  const key = (await create).headers()['idempotency-key'];
  assert.match(key || '', /^[A-Za-z0-9_.:-]{1,64}$/, `POST /api/games sent Idempotency-Key ${key}`);
  await page.waitForSelector(`#game-view[data-variant="${variant}"][data-ply="0"][data-connection="open"]`);
  return page.getAttribute('#game-view', 'data-game-id');
}

// The server's view of the game (the same call the page makes).
export async function serverGame(page) {
  const id = await page.getAttribute('#game-view', 'data-game-id');
  return page.evaluate(async (gameId) => {
    const response = await fetch(`/api/games/${encodeURIComponent(gameId)}`);
    return response.json();
  }, id);
}

export async function ply(page) {
  return Number(await page.getAttribute('#game-view', 'data-ply'));
}

export async function waitForPly(page, n) {
  await page.waitForSelector(`#game-view[data-ply="${n}"][data-pending="false"]`);
}

export function square(n) {
  return `#board rect.sq[data-square="${n}"]`;
}

export async function clickSquare(page, n) {
  if (page.useTouch) await page.tap(square(n));
  else await page.click(square(n));
}

// Pieces on the board as drawn: Map square -> {color, king}.
export async function boardPieces(page) {
  const list = await page.$$eval('#board .piece:not(.ghost)', (nodes) =>
    nodes.map((n) => [Number(n.dataset.square), {color: n.dataset.color, king: n.dataset.piece === 'king'}]),
  );
  return new Map(list);
}

// Finds `notation` among the legal moves (failing with the list if absent).
export async function legalMove(page, notation) {
  const state = await serverGame(page);
  const found = (state.legalMoves || []).find((m) => m.notation === notation);
  assert.ok(found, `${notation} is not legal at ply ${state.game.ply || 0}; legal: ${(state.legalMoves || []).map((m) => m.notation).join(' ')}`);
  return {move: found, state};
}

// Plays a move by clicking its piece, then each landing ring in turn, as a
// player would; stops early when the client plays out a forced continuation.
// With the rings turned off it taps the landing squares all the same.
export async function playByTaps(page, notation) {
  const {move, state} = await legalMove(page, notation);
  const before = state.game.ply || 0;
  await waitForPly(page, before);
  const selected = await page.$(`#board .ring.selected[data-square="${move.path[0]}"]`);
  if (!selected) await clickSquare(page, move.path[0]);
  for (const landing of move.path.slice(1)) {
    // The page may already have sent the move (one way left), or even got its snapshot.
    const now = await page.$eval('#game-view', (n) => ({pending: n.dataset.pending, ply: Number(n.dataset.ply)}));
    if (now.pending === 'true' || now.ply !== before) break;
    // With "show possible moves" off there is no ring to wait for: the tap works all the same.
    if ((await page.getAttribute('#board', 'data-show-moves')) !== 'false') {
      await page.waitForSelector(`#board .ring.target[data-square="${landing}"]`);
    }
    await clickSquare(page, landing);
  }
  await waitForPly(page, before + 1);
  return move;
}

// Drags the piece on `from` and drops it on `to` with the mouse.
export async function dragPiece(page, from, to) {
  const a = await page.locator(square(from)).boundingBox();
  const b = await page.locator(square(to)).boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x + b.width) / 2, (a.y + b.y + b.height) / 2, {steps: 5});
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, {steps: 5});
  await page.mouse.up();
}

export async function statusText(page) {
  return (await page.textContent('#status')) || '';
}

export async function marked(page, selector) {
  return (await page.$$eval(`#board ${selector}`, (nodes) => nodes.map((n) => Number(n.dataset.square)))).sort(
    (x, y) => x - y,
  );
}
