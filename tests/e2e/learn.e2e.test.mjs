// End to end, the learning side of the client and the installable app:
// seed 004's tutorial walked to its end on live boards (a wrong legal move
// and a refused piece explained), the international and English tutorials,
// the French pages with no English text left, the manifest and service
// worker as chromium judges them (installable, controlling after a reload,
// the offline page when the network is cut), and axe-core on the start
// page, a game, a tutorial and a rules page. Real gateway, game_state, Redis.
//
// Run alone (ctest -R e2e.learn does the same):
//   (cd tests/e2e && npm ci)
//   buildslot ninja -C build/asan -j2 game_state gateway
//   DRAUGHTS_BUILD_DIR=build/asan node --test tests/e2e/learn.e2e.test.mjs
// Screenshots: build/e2e-screenshots/learn/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import {after, before, test} from 'node:test';
import {pathToFileURL} from 'node:url';

import {openBrowser, screenshotDir, startHotseat} from './lib/app_driver.mjs';
import {repoRoot, Servers} from './lib/servers.mjs';

const require = createRequire(import.meta.url);
const axePath = require.resolve('axe-core/axe.min.js');

const servers = new Servers();
let base = '';
let failed = false;
const shots = path.join(screenshotDir, 'learn');

before(async () => {
  fs.rmSync(shots, {recursive: true, force: true});
  fs.mkdirSync(shots, {recursive: true});
  await servers.start();
  base = servers.baseUrl;
});

after(async () => {
  await servers.stop({keepLogs: failed});
});

async function shot(page, name) {
  await page.screenshot({path: path.join(shots, `${name}.png`), fullPage: true});
}

async function withBrowser(name, body, viewport = {width: 1000, height: 1100}) {
  const browser = await openBrowser(viewport);
  try {
    await body(browser.page, browser);
    assert.deepEqual(browser.errors, [], 'no script errors in the page');
  } catch (e) {
    failed = true;
    await shot(browser.page, `${name}-FAILED`).catch(() => {});
    throw new Error(`${e.message}\n(server logs in ${servers.dir})`, {cause: e});
  } finally {
    await browser.close();
  }
}

const sq = (n) => `#tutorial rect.sq[data-square="${n}"]`;

async function waitStep(page, id) {
  await page.waitForSelector(`#tutorial[data-step="${id}"][data-ready="true"][data-done="false"]`);
}

async function feedback(page) {
  return {
    kind: await page.getAttribute('#tutorial-feedback', 'data-kind'),
    text: (await page.textContent('#tutorial-feedback')) || '',
  };
}

// Taps the piece, then each landing square in turn, until the page sends the move.
async function playPath(page, squares) {
  await page.click(sq(squares[0]));
  for (const landing of squares.slice(1)) {
    // The page may already have sent the move (one way left), or even got its answer.
    const state = await page.$eval('#tutorial', (n) => ({ready: n.dataset.ready, done: n.dataset.done, ply: n.dataset.ply}));
    if (state.ready !== 'true' || state.done === 'true' || state.ply !== '0') break;
    await page.waitForSelector(`#tutorial .ring.target[data-square="${landing}"]`);
    await page.click(sq(landing));
  }
}

async function dragTo(page, from, to) {
  const a = await page.locator(sq(from)).boundingBox();
  const b = await page.locator(sq(to)).boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x + b.width) / 2, (a.y + b.y + b.height) / 2, {steps: 5});
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, {steps: 5});
  await page.mouse.up();
}

async function pieces(page) {
  const list = await page.$$eval('#tutorial .piece:not(.ghost)', (nodes) =>
    nodes.map((n) => [Number(n.dataset.square), `${n.dataset.color} ${n.dataset.piece}`]),
  );
  return new Map(list);
}

// The answers a learner plays, step by step (seed 004's positions and steps).
const walks = {
  'tutorial-8x8': [
    ['board', [22, 18]],
    ['move', [18, 14]],
    ['capture', [18, 9]],
    ['multi', [26, 17, 10]],
    ['mandatory', [18, 9]],
    ['promotion', [6, 1]],
    ['king', [29, 15]],
    ['crownStops', [11, 2]],
    ['win', [29, 11]],
  ],
  international: [
    ['move', [33, 28]],
    ['captureBack', [28, 37]],
    ['majority', [47, 38, 29]],
    ['king', [46, 23]],
    ['passThrough', [13, 2, 11]],
  ],
  english: [
    ['move', [10, 15]],
    ['forwardOnly', [14, 23]],
    ['choice', [4, 11]],
    ['crown', [23, 30]],
    ['king', [14, 10]],
  ],
};

async function walk(page, variant, {onStep = async () => {}} = {}) {
  await page.goto(`${base}/#/learn/${variant}`);
  const steps = walks[variant];
  for (const [index, [id, path]] of steps.entries()) {
    await waitStep(page, id);
    assert.equal(await page.textContent('#tutorial-progress'), `Step ${index + 1} of ${steps.length}`);
    assert.ok(await page.isDisabled('#tutorial-next'), `${id}: Next waits for the move`);
    await onStep(id, 'before');
    await playPath(page, path);
    await page.waitForSelector(`#tutorial[data-step="${id}"][data-done="true"][data-ready="true"]`);
    const said = await feedback(page);
    assert.equal(said.kind, 'done', `${id}: ${said.text}`);
    await onStep(id, 'after');
    await page.click('#tutorial-next');
  }
  await page.waitForSelector('#tutorial-finished:not([hidden])');
}

test('seed 004 tutorial: every step on a live board, wrong moves explained, to the end', async () => {
  await withBrowser('tutorial-8x8', async (page) => {
    await walk(page, 'tutorial-8x8', {
      onStep: async (id, when) => {
        if (id === 'board' && when === 'before') {
          // The full starting position: 12 men each, Red (FEN white) on 21-32.
          const start = await pieces(page);
          assert.equal(start.size, 24);
          assert.equal(start.get(21), 'white man');
          assert.equal(start.get(12), 'black man');
          assert.match(await page.textContent('#tutorial-status'), /Red to move/);
          await shot(page, 'tutorial-8x8-1-board');
        }
        if (id === 'multi' && when === 'after') {
          const after = await pieces(page);
          assert.deepEqual([...after.keys()].sort((a, b) => a - b), [4, 10], 'both black men taken in one move');
          await shot(page, 'tutorial-8x8-4-multi-done');
        }
        if (id === 'mandatory' && when === 'before') {
          // The man on 28 could step to 24, but a capture is compulsory: tapping it is explained.
          await page.click(sq(28));
          const said = await feedback(page);
          assert.equal(said.kind, 'wrong');
          assert.match(said.text, /capture is available, so you must take/);
          assert.equal(await page.getAttribute('#tutorial', 'data-ply'), '0', 'nothing was played');
          await shot(page, 'tutorial-8x8-5-wrong-piece');
        }
        if (id === 'promotion' && when === 'before') {
          // A legal move that misses the lesson: explained, not played.
          await playPath(page, [30, 25]);
          const said = await feedback(page);
          assert.equal(said.kind, 'wrong');
          assert.match(said.text, /does not reach the last row/);
          assert.equal(await page.getAttribute('#tutorial', 'data-ply'), '0', 'the wrong move was not sent');
          assert.equal((await pieces(page)).get(30), 'white man');
          await shot(page, 'tutorial-8x8-6-wrong-move');
        }
        if (id === 'promotion' && when === 'after') {
          assert.equal((await pieces(page)).get(1), 'white king', 'crowned on the top row');
        }
        if (id === 'king' && when === 'before') {
          await playPath(page, [29, 25]);
          assert.match((await feedback(page)).text, /flying king can slide several squares/);
        }
        if (id === 'crownStops' && when === 'after') {
          const after = await pieces(page);
          assert.equal(after.get(2), 'white king');
          assert.equal(after.get(6), 'black man', 'the turn ended at the promotion: 6 is still there');
          await shot(page, 'tutorial-8x8-8-crown-stops');
        }
        if (id === 'win' && when === 'after') {
          assert.equal(await page.getAttribute('#tutorial', 'data-result'), 'GAME_RESULT_WHITE_WINS');
          assert.match(await page.textContent('#tutorial-status'), /Red wins/);
          await shot(page, 'tutorial-8x8-9-win');
        }
      },
    });
    await shot(page, 'tutorial-8x8-finished');
    // From the end: to the rules page of the same rule set.
    await page.click('#tutorial-finished a[href="#/rules/tutorial-8x8"]');
    await page.waitForSelector('#rules-page[data-variant="tutorial-8x8"]');
  });
});

test('international and English tutorials walk to their end; a non-majority capture is explained', async () => {
  await withBrowser('tutorials', async (page) => {
    await walk(page, 'international', {
      onStep: async (id, when) => {
        if (id === 'majority' && when === 'before') {
          // Dropping the man on 36 (one piece taken) is refused: the majority rule is explained.
          await dragTo(page, 47, 36);
          const said = await feedback(page);
          assert.equal(said.kind, 'wrong');
          assert.match(said.text, /must take the most pieces/);
          assert.equal(await page.getAttribute('#tutorial', 'data-ply'), '0');
          await shot(page, 'tutorial-international-majority');
        }
      },
    });
    await walk(page, 'english', {
      onStep: async (id, when) => {
        if (id === 'move' && when === 'before') {
          assert.equal(await page.getAttribute('#tutorial #board', 'data-flipped'), 'true', 'Black, who moves first, at the bottom');
        }
        if (id === 'king' && when === 'before') {
          await playPath(page, [14, 18]);
          assert.match((await feedback(page)).text, /A king may also step back/);
          await shot(page, 'tutorial-english-king-wrong');
        }
      },
    });
  });
});
