// End to end, the ratings and history pages as players meet them: two
// accounts play a rated game to its end (resignation) and both see their
// ratings change on the leaderboard; a game against a guest leaves them
// unchanged; the finished game replays move by move and its downloaded PDN
// replays, with tools/pdn, to the same final position; a PDN file uploaded
// from the device is stepped through on a Russian board that shows its
// algebraic coordinates. Real gateway (accounts), game_state, rating,
// Redis and PostgreSQL; the games are made as matchmaking makes them
// (GameService.CreateGame with two PERSON seats) by a Node gRPC client.
//
// Run alone (ctest -R e2e.history does the same):
//   (cd tests/e2e && npm ci) && (cd tests/contract && npm ci)
//   buildslot ninja -C build/asan -j2 game_state gateway rating pdn
//   DRAUGHTS_BUILD_DIR=build/asan node --test tests/e2e/history.e2e.test.mjs
// Screenshots: build/e2e-screenshots/history/.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {after, before, test} from 'node:test';

import {GameClient} from '../contract/lib/game_client.mjs';
import {openBrowser, screenshot, screenshotDir} from './lib/app_driver.mjs';
import {HistoryServers} from './lib/history_servers.mjs';
import {repoRoot} from './lib/servers.mjs';

const servers = new HistoryServers();
let base = '';
let failed = false;
let games;
const shots = path.join(screenshotDir, 'history');
const buildDir = path.resolve(repoRoot, process.env.DRAUGHTS_BUILD_DIR || 'build/asan');
const PDN_TOOL = process.env.DRAUGHTS_PDN_BIN || path.join(buildDir, 'tools/pdn/pdn');

before(async () => {
  fs.rmSync(shots, {recursive: true, force: true});
  await servers.start();
  base = servers.baseUrl;
  games = new GameClient('game_state', servers.gameStateAddress);
});

after(async () => {
  if (games) games.stub.close();
  await servers.stop({keepLogs: failed});
});

function shot(page, name) {
  return screenshot(page, path.join('history', name));
}

async function withBrowser(name, body) {
  const browser = await openBrowser({width: 1100, height: 1000});
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

// Registers an account in this browser (its cookie is then the account's).
async function register(page, name) {
  await page.goto(`${base}/`);
  // The lobby makes a guest session on a first visit; registering while its
  // request is in flight races two Set-Cookie answers, and the guest one can
  // land last (the page is then a guest, with no line of its own).
  await page.waitForFunction(() => localStorage.getItem('draughts.sessionMade') === '1');
  const answer = await page.evaluate(async (name) => {
    const r = await fetch('/api/accounts', {
      method: 'POST',
      headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({name, password: 'a long password'}),
    });
    return {status: r.status, body: await r.json()};
  }, name);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return {name, playerId: answer.body.playerId};
}

const person = (account) => ({kind: 'SEAT_KIND_PERSON', player_id: account.playerId, display_name: account.name});

// A game between two seats: `plies` first-legal moves, then the side to
// move resigns (a finished game, as a loss by resignation ends one).
async function playAndResign(white, black, rated, plies) {
  const created = await games.ok('CreateGame', {
    idempotency_key: `e2e-history-${Date.now()}-${Math.random()}`,
    variant: 'international',
    white,
    black,
    rated,
  });
  for (let ply = 0; ply < plies; ply++) {
    const legal = await games.ok('ListLegalMoves', {game_id: created.game_id});
    await games.ok('SubmitMove', {
      game_id: created.game_id,
      player_token: ply % 2 === 0 ? created.white_player_token : created.black_player_token,
      move: legal.moves[0].notation,
      expected_ply: ply,
    });
  }
  await games.ok('Resign', {
    game_id: created.game_id,
    player_token: plies % 2 === 0 ? created.white_player_token : created.black_player_token,
    expected_ply: plies,
  });
  return created.game_id;
}

async function waitUntil(what, check, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function leaderboardRows(page) {
  return page.$$eval('#leaderboard-table tbody tr[data-player]', (rows) =>
    rows.map((r) => ({
      player: r.getAttribute('data-player'),
      own: r.classList.contains('own'),
      elo: Number(r.querySelector('td.elo').textContent),
    })),
  );
}

test('ratings, leaderboard, player page, replay and PDN of finished games', async () => {
  const stamp = String(Date.now() % 1000000);
  await withBrowser('accounts', async (alicePage) => {
    const bobBrowser = await openBrowser({width: 1100, height: 1000});
    try {
      const alice = await register(alicePage, `Alice${stamp}`);
      const bob = await register(bobBrowser.page, `Bob${stamp}`);

      // Before any game: nobody on this month's table.
      await alicePage.goto(`${base}/#/leaderboard/international`);
      await alicePage.waitForSelector('#leaderboard-table tbody tr');
      assert.deepEqual(await leaderboardRows(alicePage), []);

      // A rated game: Alice (White) plays, Bob resigns after 7 plies.
      const rated = await playAndResign(person(alice), person(bob), true, 7);

      // Both see the ratings move: the winner above 1500, the loser below.
      for (const [page, me] of [[alicePage, alice], [bobBrowser.page, bob]]) {
        await page.goto(`${base}/#/leaderboard/international`);
        const rows = await waitUntil('both players on the leaderboard', async () => {
          await page.reload();
          await page.waitForSelector('#leaderboard-table tbody tr');
          const r = await leaderboardRows(page);
          return r.length === 2 ? r : null;
        });
        assert.equal(rows[0].player, alice.playerId);
        assert.ok(rows[0].elo > 1500, `winner's rating ${rows[0].elo}`);
        assert.equal(rows[1].player, bob.playerId);
        assert.ok(rows[1].elo < 1500, `loser's rating ${rows[1].elo}`);
        assert.equal(rows[0].elo - 1500, 1500 - rows[1].elo);
        // Each sees their own line highlighted, and only that one.
        assert.deepEqual(rows.map((r) => r.own), rows.map((r) => r.player === me.playerId));
        assert.match(await page.textContent('#leaderboard-own'), /1|2/);
      }
      await shot(alicePage, 'leaderboard');
      const aliceElo = (await leaderboardRows(alicePage))[0].elo;

      // Last month's final table does not have this game.
      const previous = await alicePage.$$eval('#leaderboard-month option', (o) => o[1].value);
      await alicePage.selectOption('#leaderboard-month', previous);
      await alicePage.waitForFunction((m) => document.querySelector('#leaderboard-view').dataset.month === m, previous);
      assert.deepEqual(await leaderboardRows(alicePage), []);

      // A game against a guest (never rated): Alice's rating stays.
      const guest = {kind: 'SEAT_KIND_GUEST', player_id: 'g_e2eguest0000000000000', display_name: 'Guest-4242'};
      const casual = await playAndResign(guest, person(alice), false, 4);
      await alicePage.goto(`${base}/#/player/${alice.playerId}`);
      await waitUntil('the guest game on the player page', async () => {
        await alicePage.reload();
        await alicePage.waitForSelector('#player-view[data-ready="true"]');
        return (await alicePage.$$('#player-games tbody tr')).length === 2;
      });
      const firstRow = await alicePage.$eval('#player-games tbody tr', (r) => ({
        game: r.getAttribute('data-game'),
        change: r.querySelector('.elo-change').textContent,
      }));
      assert.equal(firstRow.game, casual);
      assert.doesNotMatch(firstRow.change, /\d/, 'the guest game changed no rating');
      const ratingNow = Number(await alicePage.textContent('#player-ratings tr[data-variant="international"] td.elo'));
      assert.equal(ratingNow, aliceElo);
      assert.equal((await alicePage.$$('#rating-chart circle.point')).length, 1, 'one rated game on the chart');
      await shot(alicePage, 'player');

      // The rated game's replay: from its row on the player page.
      await alicePage.click(`#player-games tr[data-game="${rated}"] a[href^="#/replay/"]`);
      await alicePage.waitForSelector('#replay-view[data-ready="true"]');
      const moves = await alicePage.$$('#replay-moves button.move');
      assert.equal(moves.length, 7);
      const viewer = '#replay-view .replay-viewer';
      assert.equal(await alicePage.getAttribute(viewer, 'data-ply'), '7');
      const finalFen = await alicePage.getAttribute(viewer, 'data-fen');
      const changes = await alicePage.$$eval('#replay-changes li', (items) => items.map((i) => Number(i.dataset.delta)));
      assert.equal(changes.length, 2);
      assert.ok(changes[0] > 0 && changes[0] === -changes[1], `changes ${changes}`);
      await alicePage.click('#replay-first');
      assert.equal(await alicePage.getAttribute(viewer, 'data-ply'), '0');
      assert.equal((await alicePage.$$('#board .piece')).length, 40);
      await alicePage.click('#replay-next');
      await alicePage.click('#replay-next');
      assert.equal(await alicePage.getAttribute(viewer, 'data-ply'), '2');
      assert.equal(await alicePage.getAttribute('#replay-moves button[aria-current]', 'data-ply'), '2');
      await alicePage.keyboard.press('End');
      assert.equal(await alicePage.getAttribute(viewer, 'data-ply'), '7');
      await alicePage.click('#replay-previous');
      await shot(alicePage, 'replay');

      // Its PDN, downloaded by the button, replays to the same position.
      const [download] = await Promise.all([alicePage.waitForEvent('download'), alicePage.click('#download-pdn')]);
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-pdn-')), 'game.pdn');
      await download.saveAs(file);
      const pdn = fs.readFileSync(file, 'utf8');
      assert.match(pdn, /\[GameType "20/);
      assert.match(pdn, new RegExp(`\\[White "${alice.name}"\\]`));
      const tool = spawnSync(PDN_TOOL, ['fen', file, '--game=1'], {encoding: 'utf8'});
      assert.equal(tool.status, 0, tool.stderr);
      assert.equal(tool.stdout.trim(), finalFen);
    } finally {
      await bobBrowser.close();
    }
  });
});

// A short Russian game in the federation's algebraic notation, and one that
// does not replay.
const RUSSIAN_PDN = [
  '[Event "Upload test"]', '[White "Ivanov"]', '[Black "Petrov"]', '[GameType "25"]', '[Result "2-0"]', '',
  '1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. g3-f4 e5:g3 4. h2:f4 2-0', '',
  '[Event "Broken"]', '[White "A"]', '[Black "B"]', '', '1. 32-27 50-45 2-0', '',
].join('\r\n');

test('an uploaded PDN file is replayed move by move on a board with its coordinates', async () => {
  await withBrowser('upload', async (page) => {
    await page.goto(`${base}/#/replay`);
    await page.waitForSelector('#pdn-file');
    await page.setInputFiles('#pdn-file', {name: 'russian.pdn', mimeType: 'text/plain', buffer: Buffer.from(RUSSIAN_PDN)});
    await page.waitForSelector('#pdn-games button.game-choice');
    assert.equal((await page.$$('#pdn-games button.game-choice')).length, 1);
    const failure = await page.textContent('#pdn-failures li');
    assert.match(failure, /2/);
    await page.click('#pdn-games button.game-choice');
    const viewer = '#replay-view .replay-viewer';
    assert.equal(await page.getAttribute(viewer, 'data-ply'), '0');
    const notation = await page.$$eval('#replay-moves button.move', (b) => b.map((x) => x.textContent));
    assert.deepEqual(notation.slice(0, 4), ['c3-d4', 'f6-e5', 'd4:f6', 'g7:e5']);
    // Algebraic coordinates around the board: files a-h, ranks 1-8; the
    // squares keep their standard numbers.
    const files = await page.$$eval('#board text.coord.file', (t) => t.map((x) => x.textContent).sort().join(''));
    const ranks = await page.$$eval('#board text.coord.rank', (t) => t.map((x) => x.textContent).sort().join(''));
    assert.equal(files, 'abcdefgh');
    assert.equal(ranks, '12345678');
    assert.equal((await page.$$('#board rect.sq[data-square]')).length, 32);
    // c3-d4 moves the man from standard square 22 to 18.
    assert.ok(await page.$('#board .piece[data-square="22"]'));
    await page.click('#replay-next');
    assert.equal(await page.getAttribute(viewer, 'data-ply'), '1');
    assert.ok(await page.$('#board .piece[data-square="18"]'));
    assert.equal(await page.$('#board .piece[data-square="22"]'), null);
    await page.click('#replay-next');
    await page.click('#replay-next');
    assert.equal(await page.getAttribute(viewer, 'data-ply'), '3');
    await shot(page, 'upload-russian');

    // In French: the same screen with its French texts.
    await page.evaluate(() => localStorage.setItem('draughts.settings', JSON.stringify({language: 'fr'})));
    await page.reload();
    await page.waitForSelector('#pdn-file');
    assert.equal(await page.textContent('#replay-view h2'), 'Revoir un fichier PDN');
    await page.setInputFiles('#pdn-file', {name: 'russian.pdn', mimeType: 'text/plain', buffer: Buffer.from(RUSSIAN_PDN)});
    await page.click('#pdn-games button.game-choice');
    assert.equal(await page.getAttribute('#replay-next', 'aria-label'), 'Coup suivant');
    assert.equal(await page.textContent('#replay-ply'), 'Position de départ');
    await page.click('#replay-last');
    assert.match(await page.textContent('#replay-ply'), /^Coup 7 sur 7/);
    await shot(page, 'upload-russian-fr');
  });
});
