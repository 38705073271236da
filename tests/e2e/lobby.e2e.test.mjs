// End to end, the lobby as players meet it: a private table created in one
// browser and joined by a second through its invite link, a third refused
// with a wrong password (a message, no navigation), the list's filters, and
// "play the computer" in one step. Real gateway, matchmaking, game_state and
// Redis.
//
// Run alone (ctest -R e2e.lobby does the same):
//   (cd tests/e2e && npm ci)
//   buildslot ninja -C build/asan -j2 game_state matchmaking gateway
//   DRAUGHTS_BUILD_DIR=build/asan node --test tests/e2e/lobby.e2e.test.mjs
// Screenshots: build/e2e-screenshots/lobby/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {after, before, test} from 'node:test';

import {openBrowser, screenshotDir} from './lib/app_driver.mjs';
import {LobbyServers} from './lib/lobby_servers.mjs';
import {en} from '../../web/dist/js/strings/lobby.js';

const servers = new LobbyServers();
let base = '';
let failed = false;
const shots = path.join(screenshotDir, 'lobby');
const browsers = [];

async function shot(page, name) {
  fs.mkdirSync(shots, {recursive: true});
  await page.screenshot({path: path.join(shots, `${name}.png`), fullPage: true});
}

// A browser on the lobby, its list loaded.
async function lobbyBrowser(viewport) {
  const browser = await openBrowser(viewport);
  browsers.push(browser);
  await browser.page.goto(`${base}/`);
  await browser.page.waitForSelector('#start-view:not([hidden]) #tables[data-loaded]');
  return browser;
}

// A REST call from the page (its session cookie), answered as {status, body}.
function rest(page, method, url, body) {
  return page.evaluate(
    async ([method, url, body]) => {
      const response = await fetch(url, {
        method,
        headers: body ? {'Content-Type': 'application/json'} : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      return {status: response.status, body: await response.json()};
    },
    [method, url, body],
  );
}

async function waitForTableAddress(page) {
  await page.waitForFunction(() => /^#\/table\/[A-Za-z0-9_-]+$/.test(location.hash));
  return decodeURIComponent((await page.evaluate(() => location.hash)).slice('#/table/'.length));
}

before(async () => {
  await servers.start();
  base = servers.baseUrl;
});

after(async () => {
  for (const browser of browsers) await browser.close().catch(() => {});
  await servers.stop({keepLogs: failed});
  if (failed) console.log(`server logs kept in ${servers.dir}`);
});

test('a private table: created, joined by its invite link, a wrong password refused; filters; play the computer', async (t) => {
  try {
    const alice = await lobbyBrowser({width: 1100, height: 900});
    await shot(alice.page, 'lobby-desktop');

    // Alice creates a private international table with every option set.
    await alice.page.click('#create-table');
    await alice.page.waitForSelector('#create-dialog[open]');
    await alice.page.selectOption('#create-variant', 'international');
    assert.deepEqual(
      await alice.page.$$eval('#create-time option', (options) => options.map((o) => o.value)),
      ['30s', '60s', '120s', '300s'],
      'the times international offers',
    );
    assert.equal(await alice.page.isVisible('#create-mandatory-capture'), false, 'captures stay compulsory outside English');
    await alice.page.selectOption('#create-variant', 'english');
    assert.equal(await alice.page.isVisible('#create-mandatory-capture'), true, 'English may switch captures off');
    assert.equal(await alice.page.isDisabled('#create-rated'), true, 'a guest cannot ask for a rated table');
    await alice.page.selectOption('#create-variant', 'international');
    await alice.page.selectOption('#create-time', '120s');
    await alice.page.check('#create-computer-for-absent');
    await alice.page.fill('#create-move-limit', '150');
    await alice.page.fill('#create-password', 'sesame');
    await shot(alice.page, 'create-dialog-desktop');
    const created = alice.page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/tables');
    await alice.page.click('#create-submit');
    assert.match((await created).headers()['idempotency-key'] || '', /^[A-Za-z0-9_.:-]{1,64}$/);
    await alice.page.waitForSelector('#create-result:not([hidden])');
    const invite = await alice.page.inputValue('#invite-link');
    assert.match(invite, new RegExp(`^${base}/join/[A-Za-z0-9_-]{10,}$`));
    await shot(alice.page, 'invite-link-desktop');
    await alice.page.click('#open-table');
    const tableId = await waitForTableAddress(alice.page);
    const mine = await rest(alice.page, 'GET', `/api/tables/${tableId}`);
    assert.equal(mine.status, 200);
    assert.equal(mine.body.table.hasPassword, true);
    assert.equal(mine.body.table.timePerMove, '120s');
    assert.equal(mine.body.table.options.moveLimit, 150);
    assert.equal(mine.body.table.options.computerPlaysForAbsent, true);
    assert.equal(`${base}${mine.body.invitePath}`, invite);

    // Bob opens the invite link: the client joins, then shows the table.
    const bob = await openBrowser({width: 1000, height: 900});
    browsers.push(bob);
    await bob.page.goto(invite);
    assert.equal(await waitForTableAddress(bob.page), tableId);
    const bobView = await rest(bob.page, 'GET', `/api/tables/${tableId}`);
    const bobSession = await rest(bob.page, 'GET', '/api/session');
    assert.equal(bobView.body.table.seats[1].occupant.playerId, bobSession.body.playerId);
    // Both seats are taken: READY, or PLAYING once the table screen has
    // started the game on its own.
    assert.match(bobView.body.table.status, /^TABLE_STATUS_(READY|PLAYING)$/);
    assert.doesNotMatch(JSON.stringify(bobView.body), /sesame/, 'the password is never shown');

    // A second private table of Alice's; Carol tries it with a wrong password.
    const second = await rest(alice.page, 'POST', '/api/tables', {variant: 'international', password: 'right one'});
    assert.equal(second.status, 200);
    const secondId = second.body.table.tableId;
    const carol = await lobbyBrowser({width: 1000, height: 900});
    const row = `#tables tr[data-table-id="${secondId}"]`;
    await carol.page.waitForSelector(row);
    await carol.page.click(`${row} button.join`);
    await carol.page.waitForSelector('#password-dialog[open]');
    await carol.page.fill('#join-password', 'wrong one');
    await carol.page.click('#join-submit');
    await carol.page.waitForFunction((text) => document.querySelector('#join-error').textContent === text, en.wrongPassword);
    await shot(carol.page, 'wrong-password-desktop');
    assert.equal(await carol.page.evaluate(() => location.hash), '', 'a wrong password does not navigate');
    const untouched = await rest(carol.page, 'GET', `/api/tables/${secondId}`);
    assert.equal(untouched.body.table.seats[1].occupant, undefined, 'nobody took the seat');
    await carol.page.click('#join-cancel');

    // Filters: Carol opens a public English table; the list by rule set and open seats.
    const english = await rest(carol.page, 'POST', '/api/tables', {variant: 'english', timePerMove: '30s'});
    assert.equal(english.status, 200);
    await carol.page.click('#refresh-tables');
    await carol.page.waitForSelector(`#tables tr[data-table-id="${english.body.table.tableId}"]`);
    const listed = async () => carol.page.$$eval('#tables tbody tr', (rows) => rows.map((r) => r.dataset.tableId));
    const reloaded = async (action) => {
      const before = await carol.page.getAttribute('#tables', 'data-loaded');
      await action();
      await carol.page.waitForFunction((b) => document.querySelector('#tables').dataset.loaded !== b, before);
    };
    assert.deepEqual(new Set(await listed()), new Set([english.body.table.tableId, secondId, tableId]));
    await reloaded(() => carol.page.selectOption('#filter-variant', 'english'));
    assert.deepEqual(await listed(), [english.body.table.tableId]);
    await reloaded(() => carol.page.selectOption('#filter-variant', ''));
    await reloaded(() => carol.page.check('#filter-open'));
    assert.deepEqual(new Set(await listed()), new Set([english.body.table.tableId, secondId]), 'the full table is left out');
    await reloaded(() => carol.page.selectOption('#filter-time', '30s'));
    assert.deepEqual(await listed(), [english.body.table.tableId]);
    await shot(carol.page, 'filtered-desktop');

    // Play the computer in one step, on a phone: English, Hard, black.
    const phone = await lobbyBrowser({width: 390, height: 844});
    await shot(phone.page, 'lobby-phone');
    await phone.page.selectOption('#variant', 'english');
    await phone.page.selectOption('#computer-level', 'BOT_LEVEL_HARD');
    await phone.page.check('input[name="computer-color"][value="COLOR_BLACK"]');
    await phone.page.click('#play-computer');
    const computerTable = await waitForTableAddress(phone.page);
    const vsComputer = await rest(phone.page, 'GET', `/api/tables/${computerTable}`);
    assert.equal(vsComputer.body.table.vsComputer, true);
    assert.equal(vsComputer.body.table.status, 'TABLE_STATUS_PLAYING');
    assert.equal(vsComputer.body.table.variant, 'english');
    assert.equal(vsComputer.body.table.seats[1].occupant.botLevel, 'BOT_LEVEL_HARD');
    assert.equal(vsComputer.body.yourTokens.length, 1);
    assert.equal(vsComputer.body.yourTokens[0].color, 'COLOR_BLACK');
    assert.equal(vsComputer.body.yourTokens[0].gameId, vsComputer.body.table.gameId);
    await phone.page.goto(`${base}/`);
    await phone.page.waitForSelector('#start-view:not([hidden]) #tables[data-loaded]');
    await phone.page.click('#create-table');
    await phone.page.waitForSelector('#create-dialog[open]');
    await shot(phone.page, 'create-dialog-phone');

    for (const browser of browsers) assert.deepEqual(browser.errors, [], 'no script errors');
  } catch (e) {
    failed = true;
    throw e;
  }
});

test('quick pairing: one waits, the next is paired with them, both reach the same table; a wait can be cancelled', async () => {
  try {
    const dave = await lobbyBrowser({width: 1000, height: 900});
    const erin = await lobbyBrowser({width: 390, height: 844});
    for (const {page} of [dave, erin]) await page.selectOption('#variant', 'russian');
    await dave.page.click('#quick-pair');
    await dave.page.waitForSelector('#quick-pair-waiting:not([hidden])');
    await shot(dave.page, 'quick-pair-waiting-desktop');
    await erin.page.click('#quick-pair');
    const erinTable = await waitForTableAddress(erin.page);
    assert.equal(await waitForTableAddress(dave.page), erinTable, 'the waiting player is sent to the same table');
    const seen = await rest(dave.page, 'GET', `/api/tables/${erinTable}`);
    assert.equal(seen.body.table.status, 'TABLE_STATUS_PLAYING');
    assert.equal(seen.body.yourTokens.length, 1);

    // Cancelling leaves the queue: the waiting table is gone.
    const frank = await lobbyBrowser({width: 1000, height: 900});
    await frank.page.selectOption('#variant', 'pool');
    const paired = frank.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/quick-pair');
    await frank.page.click('#quick-pair');
    const waitingTable = (await (await paired).json()).table.tableId;
    await frank.page.waitForSelector('#quick-pair-waiting:not([hidden])');
    const left = frank.page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/leave'));
    await frank.page.click('#quick-pair-cancel');
    assert.equal((await left).status(), 200);
    await frank.page.waitForSelector('#quick-pair:not([hidden])');
    assert.equal((await rest(frank.page, 'GET', `/api/tables/${waitingTable}`)).status, 404);
    assert.equal(await frank.page.evaluate(() => location.hash), '');
    for (const browser of [dave, erin, frank]) assert.deepEqual(browser.errors, [], 'no script errors');
  } catch (e) {
    failed = true;
    throw e;
  }
});
