// End to end, as a new player meets the board: the board options of seed 001
// (possible moves, square numbers) kept over a reload, the federation's
// square names (Italian numbers, Russian coordinates), a forced English
// multi-capture played by tapping its landing squares, a move played with
// the keyboard, an illegal drop that puts the piece back, a spectator's page
// that says it is watching, a 12x12 game by taps on a phone, and the 1009 a
// browser must read (not 1006) when it sends too much. Real gateway,
// game_state and Redis.
//
// Run alone (ctest -R e2e.board_player does the same):
//   (cd tests/e2e && npm ci)
//   buildslot ninja -C build/asan -j2 game_state gateway
//   DRAUGHTS_BUILD_DIR=build/asan node --test tests/e2e/board_player.e2e.test.mjs
// Screenshots: build/e2e-screenshots/board-player/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {after, before, test} from 'node:test';

import {
  boardPieces,
  clickSquare,
  dragPiece,
  legalMove,
  marked,
  openBrowser,
  playByTaps,
  screenshot,
  screenshotDir,
  serverGame,
  startHotseat,
  statusText,
  waitForPly,
} from './lib/app_driver.mjs';
import {Servers} from './lib/servers.mjs';
import {parseFen} from '../../web/dist/js/fen.js';

const servers = new Servers();
let base = '';
let failed = false;
const shots = path.join(screenshotDir, 'board-player');

before(async () => {
  fs.rmSync(shots, {recursive: true, force: true});
  await servers.start();
  base = servers.baseUrl;
});

after(async () => {
  await servers.stop({keepLogs: failed});
});

async function withBrowser(name, viewport, body, options = {}) {
  const browser = await openBrowser(viewport, options);
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

function shot(page, name) {
  return screenshot(page, path.join('board-player', name));
}

// Moves of an English game up to Black's forced double capture 7x14x23
// (found with the rules library; each is checked legal as it is played).
const ENGLISH_TO_DOUBLE_CAPTURE = [
  '11-16', '21-17', '8-11', '17-13', '4-8', '22-17', '10-15', '23-18', '15x22', '25x18',
  '16-19', '24x15', '12-16', '15-10',
];

test('english: a forced multi-capture played by tapping each landing square', async () => {
  await withBrowser('english-taps', {width: 1000, height: 1100}, async (page) => {
    await startHotseat(page, base, 'english');
    for (const m of ENGLISH_TO_DOUBLE_CAPTURE.slice(0, 8)) await playByTaps(page, m);
    // 15x22 is compulsory: a lone capturing piece is picked up at once.
    assert.match(await statusText(page), /Black to move: you must capture/);
    const {move: single} = await legalMove(page, '15x22');
    assert.deepEqual(await marked(page, '.ring.selected'), [single.path[0]]);
    assert.deepEqual(await marked(page, '.cross'), single.captured);
    for (const m of ENGLISH_TO_DOUBLE_CAPTURE.slice(8)) await playByTaps(page, m);

    const {state} = await legalMove(page, '7x14x23');
    assert.ok(state.mustCapture, 'the capture is compulsory');
    assert.match(await statusText(page), /you must capture/);
    await clickSquare(page, 7);
    assert.deepEqual(await marked(page, '.ring.target.capture'), [14]);
    await clickSquare(page, 14);
    // Half-way: the piece waits on 14, the trail shows, the next landing is ringed.
    assert.equal(await page.getAttribute('#game-view', 'data-ply'), '14', 'still choosing');
    assert.deepEqual(await marked(page, '.ring.target.capture'), [21, 23]);
    assert.equal(await page.locator('#board .trail').count(), 1);
    await shot(page, 'english-1-half-way');
    await clickSquare(page, 23);
    await waitForPly(page, 15);
    const pieces = await boardPieces(page);
    assert.deepEqual(pieces.get(23), {color: 'black', king: false});
    const played = (await serverGame(page)).game.lastMove;
    assert.deepEqual(played.path, [7, 14, 23]);
    for (const sq of [7, ...played.captured]) assert.equal(pieces.has(sq), false, `square ${sq} is empty`);
    assert.equal(await page.textContent('#captured-black'), '3');
    assert.deepEqual(await marked(page, '.last'), [7, 14, 23]);
    await shot(page, 'english-2-after-double-capture');
  });
});

test('an illegal drop puts the piece back and leaves nothing picked up', async () => {
  await withBrowser('illegal-drop', {width: 1000, height: 1100}, async (page) => {
    await startHotseat(page, base, 'international');
    // Picked up by a tap first: rings show, then the drag goes nowhere legal.
    await clickSquare(page, 32);
    assert.deepEqual(await marked(page, '.ring.target'), [27, 28]);
    await dragPiece(page, 32, 23);
    assert.deepEqual(await marked(page, '.ring'), [], 'no rings left');
    assert.equal(await page.locator('#board .lifted, #board .ghost').count(), 0, 'no piece left lifted');
    assert.deepEqual((await boardPieces(page)).get(32), {color: 'white', king: false}, 'the piece is back');
    assert.match(await statusText(page), /That piece cannot go there/);
    await shot(page, 'illegal-drop');
    // Dragged straight from the board, too.
    await dragPiece(page, 31, 22);
    assert.deepEqual(await marked(page, '.ring'), []);
    assert.equal((await serverGame(page)).game.ply || 0, 0, 'nothing was played');
    // The next tap starts afresh and a legal drop plays.
    await clickSquare(page, 33);
    assert.deepEqual(await marked(page, '.ring.selected'), [33]);
    await dragPiece(page, 33, 29);
    await waitForPly(page, 1);
    assert.deepEqual((await boardPieces(page)).get(29), {color: 'white', king: false});
    assert.doesNotMatch(await statusText(page), /cannot go there/);
  });
});

test('a spectator is told it is watching and gets no player controls', async () => {
  const player = await openBrowser({width: 1000, height: 1100});
  try {
    const id = await startHotseat(player.page, base, 'international');
    await withBrowser('spectator', {width: 1000, height: 1100}, async (page) => {
      await page.goto(`${base}/#/game/${encodeURIComponent(id)}`);
      await page.waitForSelector('#game-view[data-connection="open"][data-role="spectator"]');
      assert.equal(await page.isVisible('#watching'), true);
      assert.match(await page.textContent('#watching'), /Watching.*only the game's players can move/s);
      assert.match(await statusText(page), /^Watching · White to move/);
      for (const button of ['#resign', '#offer-draw', '#accept-draw', '#decline-draw']) {
        assert.equal(await page.isVisible(button), false, `${button} hidden`);
      }
      // Tapping a piece picks nothing up.
      await clickSquare(page, 32);
      assert.equal(await page.locator('#board .ring').count(), 0);
      assert.equal(await page.$eval('#board', (svg) => svg.classList.contains('interactive')), false);

      // The player moves; the spectator sees it.
      await playByTaps(player.page, '32-28');
      await page.waitForSelector('#game-view[data-ply="1"]');
      assert.deepEqual((await boardPieces(page)).get(28), {color: 'white', king: false});
      assert.match(await statusText(page), /^Watching · Black to move/);
      // A spectator's board stays put (White at the bottom) instead of turning each ply.
      assert.equal(await page.getAttribute('#board', 'data-flipped'), 'false');
      assert.equal(await page.isVisible('#auto-flip'), false);
      await shot(page, 'spectator');
      // The player's page is a player's.
      assert.equal(await player.page.getAttribute('#game-view', 'data-role'), 'player');
      assert.equal(await player.page.isVisible('#watching'), false);
      assert.equal(await player.page.isVisible('#resign'), true);
    });
    assert.deepEqual(player.errors, []);
  } finally {
    await player.close();
  }
});

test('board options: possible moves and square numbers, kept over a reload', async () => {
  await withBrowser('options', {width: 1000, height: 1100}, async (page) => {
    await startHotseat(page, base, 'english');
    assert.equal(await page.isChecked('#show-moves'), true, 'on by default (seed 003)');
    assert.equal(await page.isChecked('#show-numbers'), true);
    assert.equal(await page.locator('#board text.num').count(), 32);

    await page.uncheck('#show-numbers');
    assert.equal(await page.locator('#board text.num').count(), 0);
    await page.uncheck('#show-moves');
    // The piece is picked up (its own ring shows) but its squares are not marked...
    await clickSquare(page, 11);
    assert.deepEqual(await marked(page, '.ring.selected'), [11]);
    assert.deepEqual(await marked(page, '.ring.target'), []);
    await shot(page, 'options-off');
    // ...and tapping one still plays.
    await clickSquare(page, 16);
    await waitForPly(page, 1);

    // Both stay off after a reload.
    await page.reload();
    await page.waitForSelector('#game-view[data-ply="1"][data-connection="open"]');
    assert.equal(await page.isChecked('#show-moves'), false);
    assert.equal(await page.isChecked('#show-numbers'), false);
    assert.equal(await page.locator('#board text.num').count(), 0);
    for (const m of ['21-17', '8-11', '17-13', '4-8', '22-17', '10-15', '23-18']) await playByTaps(page, m);
    // A compulsory capture without the marks: the status line still says so.
    assert.match(await statusText(page), /you must capture/);
    assert.equal(await page.locator('#board .ring.can-capture, #board .cross, #board .ring.target').count(), 0);

    await page.check('#show-moves');
    await page.check('#show-numbers');
    assert.equal(await page.locator('#board text.num').count(), 32);
    assert.deepEqual(await marked(page, '.ring.target.capture'), [22]);
    assert.deepEqual(await marked(page, '.cross'), [18]);
    await page.reload();
    await page.waitForSelector('#game-view[data-ply="8"][data-connection="open"]');
    assert.equal(await page.isChecked('#show-moves'), true);
    assert.equal(await page.isChecked('#show-numbers'), true);
  });
});

// The labels on the board: the text written inside each numbered square, and
// the coordinates along the edges.
async function labels(page) {
  return page.$eval('#board', (svg) => {
    const squares = [...svg.querySelectorAll('rect.sq[data-square]')];
    const inSquare = {};
    for (const text of svg.querySelectorAll('text.num')) {
      const t = text.getBoundingClientRect();
      const rect = squares.find((r) => {
        const b = r.getBoundingClientRect();
        return t.x + t.width / 2 >= b.left && t.x + t.width / 2 <= b.right && t.y + t.height / 2 >= b.top && t.y + t.height / 2 <= b.bottom;
      });
      if (rect) inSquare[rect.dataset.square] = text.textContent;
    }
    const edges = [...svg.querySelectorAll('text.coord')].map((t) => t.textContent).sort().join('');
    return {inSquare, count: svg.querySelectorAll('text.num').length, edges};
  });
}

test('the federation names squares on the hotseat board too: Italian numbering, Russian coordinates, standard numbers when switched off', async () => {
  await withBrowser('notation', {width: 1000, height: 1100}, async (page) => {
    await page.goto(`${base}/`);
    const {variants} = await page.evaluate(() => fetch('/api/variants').then((r) => r.json()));
    const italian = variants.find((v) => v.id === 'italian');

    // Italian: its own numbers on its mirrored board, in the squares.
    await startHotseat(page, base, 'italian');
    assert.equal(await page.isVisible('#show-coordinates'), true);
    assert.equal(await page.isChecked('#show-coordinates'), true, 'on by default');
    assert.equal(await page.textContent('#show-coordinates-label'), " The federation's square numbers");
    const own = await labels(page);
    assert.equal(own.count, 32);
    for (const [square, text] of Object.entries(own.inSquare)) assert.equal(text, italian.notation.squareNames[square - 1], `square ${square}`);
    assert.ok(Object.entries(own.inSquare).some(([square, text]) => square !== text), 'Italian numbers differ from the standard ones');
    await shot(page, 'italian-numbering');
    await page.uncheck('#show-coordinates');
    const standard = await labels(page);
    assert.deepEqual(Object.entries(standard.inSquare).filter(([square, text]) => square !== text), [], 'switched off: standard numbers');
    // Without square numbers there is no naming to choose.
    await page.uncheck('#show-numbers');
    assert.equal(await page.isDisabled('#show-coordinates'), true);
    await page.check('#show-numbers');

    // Russian, in the same browser: the setting (off) is kept, over a reload too.
    await startHotseat(page, base, 'russian');
    await page.reload();
    await page.waitForSelector('#game-view[data-variant="russian"][data-connection="open"]');
    assert.equal(await page.isChecked('#show-coordinates'), false);
    assert.equal((await labels(page)).count, 32);
    await page.check('#show-coordinates');
    const coordinates = await labels(page);
    assert.equal(coordinates.count, 0, 'coordinates replace the numbers');
    assert.equal(coordinates.edges, '12345678abcdefgh');
    assert.equal(await page.textContent('#show-coordinates-label'), ' Coordinates on the edges (a1, b2…)');
    await shot(page, 'russian-coordinates');

    // International writes the standard numbers: nothing to choose.
    await startHotseat(page, base, 'international');
    assert.equal(await page.isVisible('#show-coordinates'), false);
    assert.equal((await labels(page)).count, 50);
  });
});

// Moves the keyboard's square to `target` with the arrow keys, reading where it is after each press.
async function keyboardTo(page, target) {
  for (let i = 0; i < 40; i++) {
    const at = Number(await page.getAttribute('#board rect.cursor', 'data-square'));
    if (at === target) return;
    const a = await page.locator(`#board rect.sq[data-square="${at}"]`).boundingBox();
    const b = await page.locator(`#board rect.sq[data-square="${target}"]`).boundingBox();
    const rows = Math.round((b.y - a.y) / a.height);
    const cols = Math.round((b.x - a.x) / a.width);
    if (rows !== 0) await page.keyboard.press(rows > 0 ? 'ArrowDown' : 'ArrowUp');
    else await page.keyboard.press(cols > 0 ? 'ArrowRight' : 'ArrowLeft');
  }
  throw new Error(`the keyboard cursor did not reach square ${target}`);
}

test('keyboard: arrows and Enter play a move; Escape puts the piece back', async () => {
  await withBrowser('keyboard', {width: 1000, height: 1100}, async (page) => {
    await startHotseat(page, base, 'international');
    await page.focus('#board');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#board rect.cursor');
    await keyboardTo(page, 34);
    assert.match(await page.getAttribute('#board', 'aria-label'), /Square 34: White man/);
    await page.keyboard.press('Enter');
    assert.deepEqual(await marked(page, '.ring.selected'), [34]);
    await page.keyboard.press('Escape');
    assert.deepEqual(await marked(page, '.ring'), []);
    await page.keyboard.press(' ');
    assert.deepEqual(await marked(page, '.ring.target'), [29, 30]);
    await keyboardTo(page, 29);
    await shot(page, 'keyboard');
    await page.keyboard.press('Enter');
    await waitForPly(page, 1);
    assert.deepEqual((await boardPieces(page)).get(29), {color: 'white', king: false});
  });
});

test('a phone: a Canadian 12x12 game by taps, the board drawn as the server has it after every move', async () => {
  await withBrowser('phone-canadian', {width: 390, height: 844}, async (page) => {
    await startHotseat(page, base, 'canadian');
    const box = await page.locator('#board').boundingBox();
    assert.ok(box.width <= 390 && box.width >= 340, `the board fills the phone's width (${box.width}px)`);
    const cell = await page.locator('#board rect.sq[data-square="1"]').boundingBox();
    assert.ok(cell.width >= 27, `squares big enough to tap (${cell.width}px)`);
    let captures = 0;
    for (let ply = 0; ply < 16; ply++) {
      const state = await serverGame(page);
      // The last legal move: varied enough to reach captures on both sides.
      const move = state.legalMoves[state.legalMoves.length - 1];
      if (move.captured && move.captured.length > 0) captures++;
      await playByTaps(page, move.notation);
      const after = await serverGame(page);
      assert.deepEqual(await boardPieces(page), parseFen(after.game.fen).pieces, `ply ${ply + 1}`);
    }
    await shot(page, 'phone-canadian');
    assert.ok(captures >= 1, `the game went through captures (${captures})`);
  }, {touch: true});
});

// Before the gateway closed gracefully, Chrome read 1006 in most rounds: the
// connection was reset under the rest of its message.
test('a browser still sending after an oversized message reads close code 1009, not 1006', async () => {
  await withBrowser('oversized', {width: 800, height: 900}, async (page) => {
    const id = await startHotseat(page, base, 'international');
    const codes = await page.evaluate(async (gameId) => {
      const results = [];
      for (let round = 0; round < 5; round++) {
        results.push(
          await new Promise((resolve) => {
            const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws/games/${encodeURIComponent(gameId)}`);
            let timer = 0;
            ws.onopen = () => {
              ws.send(JSON.stringify({action: 'ping', pad: 'p'.repeat(1 << 20)}));
              // Goes on sending as a page that has not noticed yet would.
              timer = setInterval(() => {
                if (ws.readyState === WebSocket.OPEN) ws.send('{"action":"ping"}');
              }, 1);
            };
            ws.onclose = (event) => {
              clearInterval(timer);
              resolve(event.code);
            };
          }),
        );
      }
      return results;
    }, id);
    assert.deepEqual(codes, [1009, 1009, 1009, 1009, 1009]);
  });
});
