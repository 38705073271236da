// End to end: a real browser plays hotseat games through the real gateway,
// game_state and Redis. The move lines below were found by playing against
// the rules library; each step checks that the server agrees they are legal.
//
// Run alone (ctest -R e2e.board does the same):
//   (cd tests/e2e && npm ci)
//   nice -n 10 ninja -C build/asan -j2 game_state gateway
//   DRAUGHTS_BUILD_DIR=build/asan node --test tests/e2e/board.e2e.test.mjs
// Screenshots: build/e2e-screenshots/ (a failed test leaves <name>-FAILED.png
// and keeps the servers' logs, whose directory the error names).
import assert from 'node:assert/strict';
import fs from 'node:fs';
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

const servers = new Servers();
let base = '';
let failed = false;

before(async () => {
  // Only this file's screenshots: other e2e files keep theirs in subfolders.
  for (const name of fs.existsSync(screenshotDir) ? fs.readdirSync(screenshotDir) : []) {
    if (name.endsWith('.png')) fs.rmSync(`${screenshotDir}/${name}`, {force: true});
  }
  await servers.start();
  base = servers.baseUrl;
});

after(async () => {
  await servers.stop({keepLogs: failed});
});

// Runs `body` with a fresh browser; leaves a screenshot when it fails.
async function withBrowser(name, viewport, body, options = {}) {
  const browser = await openBrowser(viewport, options);
  try {
    await body(browser.page);
    assert.deepEqual(browser.errors, [], 'no script errors in the page');
  } catch (e) {
    failed = true;
    await screenshot(browser.page, `${name}-FAILED`).catch(() => {});
    throw new Error(`${e.message}\n(server logs in ${servers.dir})`, {cause: e});
  } finally {
    await browser.close();
  }
}

async function waitForSocket(urls, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (urls.length === 0) {
    if (Date.now() > deadline) throw new Error('the page did not reconnect its WebSocket');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function capturedCounts(page) {
  return {
    white: Number(await page.textContent('#captured-white')),
    black: Number(await page.textContent('#captured-black')),
  };
}

test('international: taps, drag and drop, compulsory capture, multi-capture by taps, reload', async () => {
  await withBrowser('international', {width: 1000, height: 1100}, async (page) => {
    await startHotseat(page, base, 'international');
    assert.equal(await page.locator('#board rect.sq[data-square]').count(), 50);
    let pieces = await boardPieces(page);
    assert.equal(pieces.size, 40);
    for (let sq = 31; sq <= 50; sq++) assert.deepEqual(pieces.get(sq), {color: 'white', king: false});
    for (let sq = 1; sq <= 20; sq++) assert.deepEqual(pieces.get(sq), {color: 'black', king: false});
    assert.equal(await page.getAttribute('#board', 'data-flipped'), 'false');
    assert.match(await statusText(page), /White to move/);

    // Tap a piece: rings on the squares it can reach; tap a ring to move.
    await clickSquare(page, 34);
    assert.deepEqual(await marked(page, '.ring.selected'), [34]);
    assert.deepEqual(await marked(page, '.ring.target'), [29, 30]);
    await clickSquare(page, 30);
    await waitForPly(page, 1);
    pieces = await boardPieces(page);
    assert.deepEqual(pieces.get(30), {color: 'white', king: false});
    assert.equal(pieces.has(34), false);
    assert.deepEqual(await marked(page, '.last'), [30, 34]);
    await screenshot(page, 'international-1-after-34-30');

    // Black's turn: the board turns so Black plays from the bottom.
    assert.equal(await page.getAttribute('#board', 'data-flipped'), 'true');
    assert.match(await statusText(page), /Black to move/);
    await playByTaps(page, '17-21');

    // Drag and drop.
    await legalMove(page, '32-27');
    await dragPiece(page, 32, 27);
    await waitForPly(page, 3);
    assert.deepEqual((await boardPieces(page)).get(27), {color: 'white', king: false});

    // A compulsory capture: dashed ring on the piece, thick red ring on the landing, cross on the victim.
    assert.match(await statusText(page), /must capture/);
    assert.deepEqual(await marked(page, '.ring.can-capture'), [21]);
    assert.deepEqual(await marked(page, '.ring.target.capture'), [32]);
    assert.deepEqual(await marked(page, '.cross'), [27]);
    await screenshot(page, 'international-2-compulsory-capture');
    await clickSquare(page, 32);
    await waitForPly(page, 4);
    pieces = await boardPieces(page);
    assert.equal(pieces.has(27), false, 'the captured piece left the board');
    assert.deepEqual(pieces.get(32), {color: 'black', king: false});
    assert.deepEqual(await capturedCounts(page), {white: 0, black: 1});

    for (const m of ['37x28', '19-23', '28x19', '13x24', '30x19', '14x23', '31-26', '11-17', '42-37', '23-28']) {
      await playByTaps(page, m);
    }

    // A multi-capture with two endings: tap the first landing, then choose the last.
    const {move: chosen, state} = await legalMove(page, '33x22x11');
    const routes = state.legalMoves.filter((m) => m.path[0] === 33);
    assert.ok(routes.length >= 2, 'two routes from 33');
    const victims = [...new Set(routes.flatMap((m) => m.captured))].sort((a, b) => a - b);
    const counts = await capturedCounts(page);
    assert.deepEqual(await marked(page, '.ring.selected'), [33]);
    assert.deepEqual(await marked(page, '.cross'), victims);
    await clickSquare(page, 22);
    assert.equal(await page.getAttribute('#game-view', 'data-ply'), '14', 'still choosing');
    assert.deepEqual(await marked(page, '.ring.target.capture'), [11, 13]);
    assert.equal(await page.locator('#board .trail').count(), 1);
    await screenshot(page, 'international-3-multi-capture-half-way');
    await clickSquare(page, 11);
    await waitForPly(page, 15);
    pieces = await boardPieces(page);
    assert.deepEqual(pieces.get(11), {color: 'white', king: false});
    for (const sq of [33, ...chosen.captured]) assert.equal(pieces.has(sq), false, `square ${sq} is empty`);
    assert.equal((await capturedCounts(page)).white, counts.white + 2);
    const server = await serverGame(page);
    assert.deepEqual(server.game.lastMove.path, [33, 22, 11]);

    // A reload resumes the game where it was.
    await page.reload();
    await page.waitForSelector('#game-view[data-ply="15"][data-connection="open"]');
    assert.deepEqual(await boardPieces(page), pieces);
    assert.deepEqual(await marked(page, '.last'), [11, 22, 33]);
    await screenshot(page, 'international-4-after-reload');

    // The connection drops (the gateway restarts): the page reconnects after the last event it saw.
    const sockets = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await servers.restartGateway();
    await waitForSocket(sockets);
    assert.match(sockets[sockets.length - 1], /\/ws\/games\/[^?]+\?after=\d+-\d+$/);
    await page.waitForSelector('#game-view[data-connection="open"]');
    const next = (await serverGame(page)).legalMoves[0];
    await playByTaps(page, next.notation);
    assert.equal((await serverGame(page)).game.ply, 16);
  });
});

test('english on a touch phone: Red and Black, compulsory captures, a multi-capture chosen by taps', async () => {
  await withBrowser('english', {width: 390, height: 844}, async (page) => {
    await startHotseat(page, base, 'english');
    const box = await page.locator('#board').boundingBox();
    assert.ok(box.width <= 390 && box.width >= 300, `board fits the phone (${box.width}px)`);
    assert.equal(await page.locator('#board rect.sq[data-square]').count(), 32);
    let pieces = await boardPieces(page);
    assert.equal(pieces.size, 24);
    assert.equal(pieces.get(1).color, 'black');
    assert.equal(pieces.get(32).color, 'white');
    assert.match(await statusText(page), /Black to move/);
    assert.equal(await page.textContent('#player-top .name'), 'Red');
    await screenshot(page, 'english-1-start-phone');

    const line = ['11-16', '21-17', '8-11', '17-13', '4-8', '22-17', '10-15', '23-18', '15x22', '25x18', '16-19', '24x15', '12-16', '15-10'];
    for (const m of line) await playByTaps(page, m);

    // Black must capture and two pieces can: both get dashed rings, none is picked up.
    assert.match(await statusText(page), /Black to move: you must capture/);
    const {state} = await legalMove(page, '7x14x23');
    const froms = [...new Set(state.legalMoves.map((m) => m.path[0]))].sort((a, b) => a - b);
    assert.deepEqual(await marked(page, '.ring.can-capture'), froms);
    assert.deepEqual(await marked(page, '.ring.selected'), []);
    // A piece that cannot capture cannot be picked up.
    await clickSquare(page, 1);
    assert.deepEqual(await marked(page, '.ring.selected'), []);
    await clickSquare(page, 7);
    assert.deepEqual(await marked(page, '.ring.target.capture'), [14]);
    await clickSquare(page, 14);
    assert.deepEqual(await marked(page, '.ring.target.capture'), [21, 23]);
    await screenshot(page, 'english-2-multi-capture-phone');
    await clickSquare(page, 23);
    await waitForPly(page, 15);
    pieces = await boardPieces(page);
    assert.deepEqual(pieces.get(23), {color: 'black', king: false});
    assert.equal(pieces.has(7), false);
    const played = (await serverGame(page)).game.lastMove;
    assert.deepEqual(played.path, [7, 14, 23]);
    for (const sq of played.captured) assert.equal(pieces.has(sq), false);
    assert.match(await statusText(page), /Red to move/);
    await screenshot(page, 'english-3-after-multi-capture');
  }, {touch: true});
});

test('turkish: the full 64-square board, a capture played out in full, a king multi-capture, a draw agreed', async () => {
  await withBrowser('turkish', {width: 1000, height: 1100}, async (page) => {
    await startHotseat(page, base, 'turkish');
    assert.equal(await page.getAttribute('#board', 'data-playable'), 'all');
    assert.equal(await page.locator('#board rect.sq[data-square]').count(), 64);
    let pieces = await boardPieces(page);
    assert.equal(pieces.size, 32);
    for (let sq = 41; sq <= 56; sq++) assert.equal(pieces.get(sq).color, 'white');
    for (let sq = 9; sq <= 24; sq++) assert.equal(pieces.get(sq).color, 'black');

    await clickSquare(page, 41);
    assert.deepEqual(await marked(page, '.ring.target'), [33]);
    await clickSquare(page, 33);
    await waitForPly(page, 1);
    await playByTaps(page, '17-25');

    // Only one way to go on: tapping the first landing plays the whole capture.
    await legalMove(page, '33x17x1');
    assert.match(await statusText(page), /must capture/);
    assert.deepEqual(await marked(page, '.ring.target.capture'), [17]);
    await clickSquare(page, 17);
    await waitForPly(page, 3);
    pieces = await boardPieces(page);
    assert.deepEqual(pieces.get(1), {color: 'white', king: true}, 'crowned on the last row');
    assert.equal(pieces.has(25), false);
    assert.equal(pieces.has(9), false);

    for (const m of ['20-28', '45-37', '10-9']) await playByTaps(page, m);

    // The king's capture: tap the first landing, then pick one of the squares beyond.
    await legalMove(page, '1x25x30');
    assert.deepEqual(await marked(page, '.ring.selected'), [1]);
    await clickSquare(page, 25);
    const endings = await marked(page, '.ring.target.capture');
    assert.ok(endings.includes(30) && endings.length >= 2, `several endings: ${endings}`);
    await screenshot(page, 'turkish-1-king-multi-capture');
    await clickSquare(page, 30);
    await waitForPly(page, 7);
    pieces = await boardPieces(page);
    assert.deepEqual(pieces.get(30), {color: 'white', king: true});
    assert.equal(pieces.has(1), false);
    assert.deepEqual((await serverGame(page)).game.lastMove.path, [1, 25, 30]);
    await screenshot(page, 'turkish-2-after-capture');

    // Black offers a draw and White accepts it.
    assert.match(await statusText(page), /^Black to move/);
    await page.click('#offer-draw');
    await page.waitForSelector('#accept-draw:not([hidden])');
    assert.match(await statusText(page), /Black offers a draw: White, accept or decline\?/);
    await page.click('#accept-draw');
    await page.waitForSelector('#game-view[data-result="GAME_RESULT_DRAW"]');
    assert.match(await statusText(page), /^Draw \(by agreement\)/);
    assert.equal(await page.isHidden('#accept-draw'), true);
    assert.equal(await page.locator('#board .ring').count(), 0, 'no move to choose once it is over');
  });
});

test('frisian: multi-capture by drag and drop, settings kept, draw offer declined, resignation', async () => {
  await withBrowser('frisian', {width: 1000, height: 1100}, async (page) => {
    await startHotseat(page, base, 'frisian');
    for (const m of ['31-27', '19-24', '37-31']) await playByTaps(page, m);
    const {state} = await legalMove(page, '17x37x26');
    assert.ok(state.mustCapture);
    assert.deepEqual(await marked(page, '.ring.selected'), [17]);
    assert.deepEqual(await marked(page, '.ring.target.capture'), [37]);
    await screenshot(page, 'frisian-1-orthogonal-capture');
    // Dropping the piece on the last landing square plays the whole capture.
    await dragPiece(page, 17, 26);
    await waitForPly(page, 4);
    let pieces = await boardPieces(page);
    assert.deepEqual(pieces.get(26), {color: 'black', king: false});
    assert.equal(pieces.has(17), false);
    assert.deepEqual((await serverGame(page)).game.lastMove.path, [17, 37, 26]);

    // Board settings survive a reload: turning off "side to move at the bottom" and flipping by hand.
    assert.equal(await page.getAttribute('#board', 'data-flipped'), 'false');
    await page.click('#flip');
    assert.equal(await page.getAttribute('#board', 'data-flipped'), 'true');
    assert.equal(await page.isChecked('#auto-flip'), false);
    await page.reload();
    await page.waitForSelector('#game-view[data-ply="4"][data-connection="open"]');
    assert.equal(await page.getAttribute('#board', 'data-flipped'), 'true');
    assert.equal(await page.isChecked('#auto-flip'), false);
    await page.check('#auto-flip');
    assert.equal(await page.getAttribute('#board', 'data-flipped'), 'false', 'White to move at the bottom');

    // White offers a draw; Black declines it.
    assert.match(await statusText(page), /White to move/);
    await page.click('#offer-draw');
    await page.waitForSelector('#accept-draw:not([hidden])');
    assert.match(await statusText(page), /White offers a draw/);
    await screenshot(page, 'frisian-2-draw-offered');
    await page.click('#decline-draw');
    await page.waitForSelector('#accept-draw[hidden]', {state: 'attached'});
    assert.match(await statusText(page), /White to move/);

    // White resigns (the button asks once more).
    await page.click('#resign');
    assert.equal(await page.getAttribute('#game-view', 'data-result'), 'GAME_RESULT_ONGOING');
    await page.click('#resign');
    await page.waitForSelector('#game-view[data-result="GAME_RESULT_BLACK_WINS"]');
    assert.match(await statusText(page), /Black wins \(by resignation\)/);
    assert.equal(await page.isDisabled('#resign'), true);
    assert.equal(await page.isDisabled('#offer-draw'), true);
    await screenshot(page, 'frisian-3-resigned');

    // The start page remembers the rule set last chosen.
    await page.click('#new-game');
    await page.waitForSelector('#start-view:not([hidden])');
    assert.equal(await page.inputValue('#variant'), 'frisian');
    assert.equal(await page.isVisible('#resume'), true);
    await screenshot(page, 'start-page');
  });
});

test('a refused action: the server error shows in the status line', async () => {
  const browser = await openBrowser({width: 900, height: 1000});
  try {
    const {page, context} = browser;
    await startHotseat(page, base, 'international');
    // A second tab on the same game that misses the position updates.
    const stale = await context.newPage();
    let frozen = false;
    await stale.routeWebSocket(/\/ws\/games\//, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((message) => {
        const type = JSON.parse(String(message)).type;
        if (!frozen || (type !== 'snapshot' && type !== 'event')) ws.send(message);
      });
    });
    await stale.goto(`${base}/`);
    await stale.waitForSelector('#game-view[data-ply="0"][data-connection="open"]');
    frozen = true;
    await playByTaps(page, '32-28');
    // The stale tab still shows ply 0 and tries a move: game_state refuses the old expectedPly.
    await clickSquare(stale, 31);
    await clickSquare(stale, 27);
    await stale.waitForSelector('#status.error');
    assert.match(await statusText(stale), /Error: /);
    // ABORTED (stale ply): the page fetches the current position by itself.
    await stale.waitForSelector('#game-view[data-ply="1"]');
    assert.deepEqual((await boardPieces(stale)).get(28), {color: 'white', king: false});
    assert.match(await statusText(stale), /Black to move · Error: /);
    await screenshot(stale, 'error-stale-move');
    assert.equal((await serverGame(page)).game.ply, 1, 'the refused move changed nothing');
    assert.deepEqual(browser.errors, []);
  } catch (e) {
    failed = true;
    throw e;
  } finally {
    await browser.close();
  }
});

test('every rule set: its board, numbers, pieces and colour names come from its description', async () => {
  await withBrowser('all-variants', {width: 800, height: 900}, async (page) => {
    await page.goto(`${base}/`);
    const {variants} = await page.evaluate(() => fetch('/api/variants').then((r) => r.json()));
    assert.ok(variants.length >= 15, `${variants.length} rule sets`);
    for (const v of variants) {
      await startHotseat(page, base, v.id);
      const squares = await page.locator('#board rect.sq[data-square]').count();
      assert.equal(squares, v.squares, `${v.id}: numbered squares`);
      // What any test tool drives the board by: every playable square its
      // standard number once, every piece its kind, colour and square.
      const tags = await page.$eval('#board', (svg) => ({
        numbers: [...svg.querySelectorAll('rect.sq[data-square]')].map((r) => Number(r.getAttribute('data-square'))),
        unnumberedPlayable: svg.querySelectorAll(
          svg.dataset.playable === 'all' ? 'rect.sq:not([data-square])' : 'rect.sq.dark:not([data-square])',
        ).length,
        pieces: [...svg.querySelectorAll('.piece')].map((p) => [p.getAttribute('data-piece'), p.getAttribute('data-color'), p.getAttribute('data-square')]),
      }));
      assert.deepEqual(tags.numbers.sort((a, b) => a - b), Array.from({length: v.squares}, (_, i) => i + 1), `${v.id}: square numbers`);
      assert.equal(tags.unnumberedPlayable, 0, `${v.id}: every playable square is numbered`);
      for (const [kind, color, sq] of tags.pieces) {
        assert.ok(['man', 'king'].includes(kind) && ['white', 'black'].includes(color) && Number(sq) >= 1, `${v.id}: piece ${kind} ${color} ${sq}`);
      }
      // Every button has an accessible name.
      const unnamed = await page.$$eval('button', (buttons) =>
        buttons.filter((b) => !(b.getAttribute('aria-label') || b.textContent || '').trim()).map((b) => b.id));
      assert.deepEqual(unnamed, [], `${v.id}: buttons without a name`);
      // Square names as the federation writes them (on by default): files
      // and ranks on the edges for coordinates, else a number in each square.
      if (v.notation.style === 'coordinates') {
        assert.equal(await page.locator('#board text.num').count(), 0, `${v.id}: no numbers beside the coordinates`);
        assert.equal(await page.locator('#board text.coord').count(), v.board.rows + v.board.cols, `${v.id}: coordinates`);
      } else {
        assert.equal(await page.locator('#board text.num').count(), v.squares, `${v.id}: square numbers`);
      }
      assert.equal(await page.getAttribute('#board', 'data-rows'), String(v.board.rows));
      const pieces = await boardPieces(page);
      const fen = v.initialFen.replace(/\.$/, '').split(':').slice(1);
      const count = (side) => {
        const part = fen.find((p) => p[0] === side) || side;
        return part.slice(1).split(',').filter(Boolean).reduce((n, item) => {
          const [a, b] = item.replace(/K/g, '').split('-').map(Number);
          return n + (b ? b - a + 1 : 1);
        }, 0);
      };
      const white = [...pieces.values()].filter((p) => p.color === 'white').length;
      const black = [...pieces.values()].filter((p) => p.color === 'black').length;
      assert.deepEqual({white, black}, {white: count('W'), black: count('B')}, `${v.id}: pieces`);
      const mover = v.firstColor === 'COLOR_WHITE' ? v.colorNames.white : v.colorNames.black;
      assert.match(await statusText(page), new RegExp(`^${mover} to move`), `${v.id}: status`);
      // A mirrored board (Italian, Spanish) has a light square in the bottom-left corner.
      const corner = await page.$eval('#board', (svg) => {
        const rows = Number(svg.dataset.rows);
        const rect = [...svg.querySelectorAll('rect.sq')].find(
          (r) => r.getAttribute('x') === '0' && r.getAttribute('y') === String((rows - 1) * 100),
        );
        return rect.classList.contains('light') ? 'light' : 'dark';
      });
      if (v.board.playable === 'dark') {
        assert.equal(corner, v.board.mirrored ? 'light' : 'dark', `${v.id}: bottom-left corner`);
      }
      if (['canadian', 'italian', 'tutorial-8x8'].includes(v.id)) await screenshot(page, `variant-${v.id}`);
    }
  });
});
