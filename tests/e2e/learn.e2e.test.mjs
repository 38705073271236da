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
import {LobbyServers} from './lib/lobby_servers.mjs';
import {repoRoot} from './lib/servers.mjs';

const require = createRequire(import.meta.url);
const axePath = require.resolve('axe-core/axe.min.js');

// The start page is the lobby: it lists tables, so matchmaking runs too.
const servers = new LobbyServers();
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

// Every English text of every area, as literal pieces (placeholders cut
// out) long enough to mean something on a page. A French text equal to the
// English is left out only where that is right: a language's own name, or a
// single word (a name both languages share, "Score"); an English sentence
// copied into the French table is not.
async function englishOnlyTexts() {
  const dir = path.join(repoRoot, 'web/dist/js/strings');
  const texts = new Set();
  const walkPair = (en, fr, key = '') => {
    if (typeof en === 'string') {
      const sameWord = fr === en && !/\s/.test(en.replace(/\{\w+\}/g, '').trim());
      if (sameWord || (fr === en && key.includes('languageNames'))) return;
      const pieces = en.split(/\{\w+\}/);
      for (const piece of pieces) {
        const trimmed = piece.trim().replace(/^[\s:·,.()!?]+|[\s:·,.()!?]+$/g, '');
        // A lone word cut out of a sentence by its placeholders ("{name}'s
        // table") may well be French too ("table"): only whole texts and
        // pieces of several words say a text was left in English.
        if (pieces.length > 1 && !/\s/.test(trimmed)) continue;
        if (/[A-Za-z]{4,}/.test(trimmed)) texts.add(trimmed);
      }
      return;
    }
    for (const k of Object.keys(en)) walkPair(en[k], fr ? fr[k] : undefined, `${key}.${k}`);
  };
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const area = await import(pathToFileURL(path.join(dir, file)).href);
    walkPair(area.en, area.fr);
  }
  return [...texts];
}

// What the page shows: visible text, buttons' and inputs' names, options of selects.
async function visibleText(page) {
  return page.evaluate(() => {
    const parts = [document.body.innerText, document.title];
    for (const node of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
      if (node instanceof HTMLElement && node.closest('[hidden]')) continue;
      for (const attr of ['aria-label', 'title', 'placeholder']) if (node.getAttribute(attr)) parts.push(node.getAttribute(attr));
    }
    return parts.join('\n');
  });
}

// A key shown instead of its text: dotted ("learn.nav.rules") or a bare
// camelCase key ("startHeading"), which no sentence of either language has.
const RAW_KEY = /\b(?:learn|reason|lessons|pages)\.[A-Za-z0-9_.-]+|\b[a-z]+[A-Z][A-Za-z]*\b/;

async function assertFrench(page, where, english) {
  const text = await visibleText(page);
  const left = english.filter((en) => text.includes(en));
  assert.deepEqual(left, [], `${where}: English left on the French page`);
  assert.doesNotMatch(text, RAW_KEY, `${where}: a raw key is shown`);
  assert.equal(await page.getAttribute('html', 'lang'), 'fr', where);
}

test('French: chosen in the header, remembered, no English text left on the start, game, rules and tutorial pages', async () => {
  const english = await englishOnlyTexts();
  assert.ok(english.length > 100, `${english.length} English texts to look for`);
  await withBrowser('french', async (page) => {
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="true"] #start-view:not([hidden])');
    // English first (the browser's language): no raw key either.
    assert.doesNotMatch(await visibleText(page), RAW_KEY);
    assert.equal(await page.textContent('#nav-rules'), 'Rules');
    await Promise.all([page.waitForEvent('load'), page.selectOption('#language', 'fr')]);
    await page.waitForSelector('body[data-ready="true"] #start-view:not([hidden])');
    assert.equal(await page.textContent('#nav-rules'), 'Règles');
    assert.equal(await page.textContent('#start'), 'Commencer une partie sur cet appareil');
    await assertFrench(page, 'start page', english);
    await shot(page, 'fr-start');

    await startHotseat(page, base, 'english');
    assert.match(await page.textContent('#status'), /^Aux Noirs de jouer/);
    assert.equal(await page.textContent('#variant-name'), 'Dames anglaises');
    // The sides' names are translated, their colours are not: Red's men stay red.
    const fill = await page.$eval('#board .piece[data-color="white"] circle', (c) => c.getAttribute('fill'));
    assert.equal(fill, '#c0392b');
    assert.match(await page.getAttribute('#player-top .swatch', 'class'), /rouges/);
    await assertFrench(page, 'game page', english);
    await shot(page, 'fr-game');

    // The header's rules link goes to the rules of the game on screen.
    await page.click('#nav-rules');
    await page.waitForSelector('#rules-page[data-variant="english"]');
    assert.match(await page.textContent('#rules-page h2'), /Règles : Dames anglaises/);
    await assertFrench(page, 'rules page', english);
    await shot(page, 'fr-rules-english');

    // Remembered over a reload, in the tutorial too.
    await page.goto(`${base}/#/learn/tutorial-8x8`);
    await page.waitForSelector('#tutorial[data-ready="true"]');
    assert.equal(await page.textContent('#tutorial-progress'), 'Étape 1 sur 9');
    await assertFrench(page, 'tutorial', english);
    await shot(page, 'fr-tutorial');
  });
});

test('rules pages: every rule set listed, each page with rules, tips and questions, reachable from the header', async () => {
  await withBrowser('rules', async (page) => {
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="true"] #start-view:not([hidden])');
    await page.selectOption('#variant', 'international');
    await page.click('#nav-rules');
    await page.waitForSelector('#rules-page[data-variant="international"]');
    for (const section of ['#rules-rules li', '#rules-how li', '#rules-tips li', '#rules-faq dt', '#rules-faq dd']) {
      assert.ok((await page.$$(section)).length > 0, section);
    }
    assert.match(await page.textContent('#rules-rules'), /most pieces/);
    await shot(page, 'rules-international');
    await page.goto(`${base}/#/rules`);
    await page.waitForSelector('#rules-index');
    const links = await page.$$eval('#rules-index a', (a) => a.map((x) => x.getAttribute('href')));
    const variants = (await (await fetch(`${base}/api/variants`)).json()).variants.map((v) => v.id);
    for (const id of variants) assert.ok(links.includes(`#/rules/${id}`), `a rules page for ${id}`);
    for (const id of variants) {
      await page.goto(`${base}/#/rules/${id}`);
      await page.waitForSelector(`#rules-page[data-variant="${id}"] #rules-faq dd`);
      assert.doesNotMatch(await visibleText(page), RAW_KEY, `rules of ${id}: no raw key`);
    }
    for (const id of Object.keys(walks)) {
      await page.goto(`${base}/#/learn/${id}`);
      await page.waitForSelector(`#tutorial[data-variant="${id}"][data-ready="true"]`);
      assert.doesNotMatch(await visibleText(page), RAW_KEY, `tutorial of ${id}: no raw key`);
    }
    await page.goto(`${base}/#/rules/english`);
    await page.waitForSelector('#rules-page[data-variant="english"]');
    await shot(page, 'rules-english');
    await page.click('#rules-tutorial');
    await page.waitForSelector('#tutorial[data-variant="english"][data-ready="true"]');
  });
});

test('installable: manifest and icons accepted by chromium, the service worker controls the page, offline page without network', async () => {
  const manifest = await fetch(`${base}/manifest.webmanifest`);
  assert.equal(manifest.headers.get('content-type'), 'application/manifest+json');
  const body = await manifest.json();
  assert.ok(body.icons.some((i) => i.sizes === '512x512' && i.purpose === 'maskable'));
  for (const icon of body.icons) {
    const response = await fetch(`${base}/${icon.src}`);
    assert.equal(response.status, 200, icon.src);
    assert.equal(response.headers.get('content-type'), icon.type, icon.src);
  }
  await withBrowser('pwa', async (page, browser) => {
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    const controlled = await page.evaluate(() => Boolean(navigator.serviceWorker.controller));
    assert.ok(controlled, 'the service worker controls the page after a reload');
    const cdp = await browser.context.newCDPSession(page);
    const {installabilityErrors} = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, [], 'chromium finds the app installable');
    const {errors: manifestErrors} = await cdp.send('Page.getAppManifest');
    assert.deepEqual(manifestErrors, []);
    // The API never comes from the cache: a variants call reaches the server.
    const cached = await page.evaluate(async () => {
      const names = await caches.keys();
      const requests = (await Promise.all(names.map(async (n) => (await caches.open(n)).keys()))).flat();
      return requests.map((r) => new URL(r.url).pathname);
    });
    assert.ok(cached.includes('/offline.html') && cached.includes('/js/board.js'), cached.join(' '));
    assert.deepEqual(cached.filter((p) => p.startsWith('/api') || p.startsWith('/ws')), []);

    await browser.context.setOffline(true);
    await page.reload();
    await page.waitForSelector('#offline-view');
    assert.equal(await page.textContent('#offline-view h2'), 'You are offline');
    await shot(page, 'offline');
    await browser.context.setOffline(false);
    await page.click('#offline-retry');
    await page.waitForSelector('body[data-ready="true"]');
  });
});

async function axeViolations(page) {
  await page.addScriptTag({path: axePath});
  const result = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, {resultTypes: ['violations']});
    return r.violations.map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5)}));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

test('accessibility: axe-core finds no serious or critical violation on the start page, a game, a tutorial and a rules page', async () => {
  await withBrowser('axe', async (page) => {
    const pages = [];
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="true"] #start-view:not([hidden])');
    pages.push(['start', await axeViolations(page)]);
    await startHotseat(page, base, 'international');
    pages.push(['game', await axeViolations(page)]);
    await page.goto(`${base}/#/learn/tutorial-8x8`);
    await page.waitForSelector('#tutorial[data-ready="true"]');
    pages.push(['tutorial', await axeViolations(page)]);
    await page.goto(`${base}/#/rules/english`);
    await page.waitForSelector('#rules-page');
    pages.push(['rules', await axeViolations(page)]);
    for (const [name, violations] of pages) assert.deepEqual(violations, [], `${name}: ${JSON.stringify(violations)}`);
    // The check can fail: a button without a name is reported.
    await page.evaluate(() => document.querySelector('#rules-page').append(document.createElement('button')));
    const control = await axeViolations(page);
    assert.ok(control.some((v) => v.id === 'button-name'), JSON.stringify(control));
    await page.reload();
    await page.waitForSelector('#rules-page');
    // Focus is visible: a focused link draws an outline.
    await page.focus('#nav-learn');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    const outline = await page.$eval('#nav-learn', (a) => getComputedStyle(a).outlineStyle);
    assert.notEqual(outline, 'none', 'the focused link has an outline');
  });
});
