// End to end, the account screen (#/account) as players meet it: two
// browsers register through the screen (the header then names them), log
// out and in again, a wrong password and a taken name are refused with their
// own messages, the password is changed, and a deleted account can no longer
// log in. axe-core finds nothing serious on the screen; screenshots on a
// desktop and a 390x844 phone. Then two new accounts play a RATED table made
// in the lobby and joined through its invite link, on the table screen, until
// one resigns; both see the new ratings on the leaderboard (one above 1500,
// one below). Real gateway (accounts on, --pg), game_state, matchmaking,
// clock, bot, chat, rating, Redis and PostgreSQL (lib/account_servers.mjs).
//
// Run alone (ctest -R e2e.account does the same):
//   buildslot ninja -C build/asan -j2 game_state gateway matchmaking clock bot chat rating
//   DRAUGHTS_BUILD_DIR=build/asan node --test tests/e2e/account.e2e.test.mjs
// Screenshots: build/e2e-screenshots/account/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import {after, before, test} from 'node:test';

import {openBrowser, screenshot, screenshotDir} from './lib/app_driver.mjs';
import {AccountServers} from './lib/account_servers.mjs';
import {buttonNamed, data, playByTaps, serverGame, waitForData, waitForMyTurn} from './lib/table_driver.mjs';

const require = createRequire(import.meta.url);
const axePath = require.resolve('axe-core/axe.min.js');
const servers = new AccountServers();
let base = '';
let failed = false;

before(async () => {
  fs.rmSync(path.join(screenshotDir, 'account'), {recursive: true, force: true});
  await servers.start();
  base = servers.baseUrl;
});

after(async () => {
  await servers.stop({keepLogs: failed});
});

async function withBrowsers(viewports, body) {
  const browsers = [];
  try {
    for (const v of viewports) browsers.push(await openBrowser(v));
    await body(...browsers);
    for (const b of browsers) assert.deepEqual(b.errors, [], 'no script errors in the page');
  } catch (e) {
    failed = true;
    for (const [i, b] of browsers.entries()) await screenshot(b.page, path.join('account', `FAILED-${i}`)).catch(() => {});
    throw new Error(`${e.message}\n(server logs in ${servers.dir})`, {cause: e});
  } finally {
    for (const b of browsers) await b.close();
  }
}

async function openAccount(page) {
  await page.goto(`${base}/#/account`);
  await page.waitForSelector('#account-view[data-kind]');
}

async function kind(page) {
  return page.$eval('#account-view', (n) => n.dataset.kind);
}

// The header's account link: its accessible name and the kind it shows.
async function headerAccount(page) {
  return page.$eval('#nav-account', (n) => ({text: n.textContent.trim(), kind: n.dataset.kind}));
}

async function waitHeaderName(page, name) {
  await page.waitForFunction((name) => document.getElementById('nav-account-name')?.textContent === name, name);
}

async function session(page) {
  return page.evaluate(async () => {
    const r = await fetch('/api/session');
    return {status: r.status, body: r.ok ? await r.json() : null};
  });
}

async function register(page, name, password) {
  await page.fill('#register-name', name);
  await page.fill('#register-password', password);
  await page.getByRole('button', {name: 'Register'}).click();
}

async function login(page, name, password) {
  await page.fill('#login-name', name);
  await page.fill('#login-password', password);
  await page.getByRole('button', {name: 'Log in'}).click();
}

async function logout(page) {
  await page.getByRole('button', {name: 'Log out'}).click();
  await page.waitForSelector('#account-view[data-kind="guest"]');
}

async function errorText(page) {
  await page.waitForSelector('#account-error:not(:empty)');
  return page.textContent('#account-error');
}

async function axeViolations(page) {
  await page.addScriptTag({path: axePath});
  const result = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, {resultTypes: ['violations']});
    return r.violations.map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5)}));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

test('register, log out and in, wrong password, name taken, change password, delete: each with its message', async () => {
  await withBrowsers([{width: 1100, height: 900}, {width: 390, height: 844}], async (anna, ben) => {
    // Anna: a guest first (the lobby made her session), the header says so.
    await anna.page.goto(`${base}/`);
    await anna.page.waitForSelector('body[data-ready="true"]');
    await anna.page.getByRole('link', {name: 'Leaderboard'}).waitFor();
    await openAccount(anna.page);
    assert.equal(await kind(anna.page), 'guest');
    assert.deepEqual(await headerAccount(anna.page), {text: 'Account: Guest', kind: 'guest'});
    await screenshot(anna.page, 'account/guest-desktop');
    assert.deepEqual(await axeViolations(anna.page), [], 'axe on the guest view');
    const guestId = (await session(anna.page)).body.playerId;

    await register(anna.page, 'Anna_B', 'correct horse');
    await anna.page.waitForSelector('#account-view[data-kind="person"]');
    assert.match(await anna.page.textContent('#account-status'), /Welcome, Anna_B/);
    await waitHeaderName(anna.page, 'Anna_B');
    assert.equal((await headerAccount(anna.page)).kind, 'person');
    const annaSession = (await session(anna.page)).body;
    assert.equal(annaSession.kind, 'person');
    assert.equal(annaSession.displayName, 'Anna_B');
    assert.equal(annaSession.playerId, guestId, 'the account keeps the guest id');
    await screenshot(anna.page, 'account/person-desktop');
    assert.deepEqual(await axeViolations(anna.page), [], 'axe on the logged-in view');

    // Ben, on a phone: the name Anna took is refused (ignoring case), another works.
    await openAccount(ben.page);
    await screenshot(ben.page, 'account/guest-phone');
    await register(ben.page, 'anna_b', 'another secret');
    assert.equal(await errorText(ben.page), 'This name is already taken: choose another.');
    assert.equal(await kind(ben.page), 'guest');
    await register(ben.page, 'Ben-C', 'another secret');
    await ben.page.waitForSelector('#account-view[data-kind="person"]');
    await waitHeaderName(ben.page, 'Ben-C');
    await screenshot(ben.page, 'account/person-phone');
    assert.deepEqual(await axeViolations(ben.page), [], 'axe on the phone');

    // Anna logs out: a guest again (a new guest session); in again with her name in any case.
    await logout(anna.page);
    assert.equal(await anna.page.textContent('#account-status'), 'You are logged out.');
    await waitHeaderName(anna.page, 'Guest');
    const after = await session(anna.page);
    assert.equal(after.status, 200);
    assert.equal(after.body.kind, 'guest');
    assert.notEqual(after.body.playerId, guestId);

    await login(anna.page, 'Anna_B', 'wrong horse');
    assert.equal(await errorText(anna.page), 'Wrong name or password.');
    assert.equal(await kind(anna.page), 'guest');
    assert.equal((await session(anna.page)).body.kind, 'guest', 'a wrong password logs no one in');
    await screenshot(anna.page, 'account/wrong-password-desktop');

    await login(anna.page, 'ANNA_b', 'correct horse');
    await anna.page.waitForSelector('#account-view[data-kind="person"]');
    assert.equal(await anna.page.textContent('#account-status'), 'Welcome back, Anna_B.');
    assert.equal((await session(anna.page)).body.playerId, guestId, 'the same account again');
    await waitHeaderName(anna.page, 'Anna_B');

    // Ben changes his password: a wrong current one is refused, then the new one logs in.
    await ben.page.fill('#password-current', 'not my secret');
    await ben.page.fill('#password-new', 'a newer secret');
    await ben.page.getByRole('button', {name: 'Change password'}).click();
    assert.equal(await errorText(ben.page), 'The password is wrong.');
    await ben.page.fill('#password-current', 'another secret');
    await ben.page.getByRole('button', {name: 'Change password'}).click();
    await ben.page.waitForFunction(() => document.getElementById('account-status')?.textContent.startsWith('Password changed'));
    assert.equal((await session(ben.page)).body.displayName, 'Ben-C', 'this browser stays logged in');

    // Ben deletes his account: a confirmation first, a wrong password refused, then gone.
    assert.equal(await ben.page.isVisible('#delete-form'), false);
    await ben.page.getByRole('button', {name: 'Delete account'}).click();
    await ben.page.waitForSelector('#delete-form:not([hidden])');
    assert.equal(await ben.page.getAttribute('#delete-account', 'aria-expanded'), 'true');
    await ben.page.getByRole('button', {name: 'Cancel'}).click();
    assert.equal(await ben.page.isVisible('#delete-form'), false, 'cancel closes the confirmation');
    await ben.page.getByRole('button', {name: 'Delete account'}).click();
    await ben.page.fill('#delete-password', 'another secret');
    await ben.page.getByRole('button', {name: 'Yes, delete my account'}).click();
    assert.equal(await errorText(ben.page), 'The password is wrong.');
    assert.equal(await kind(ben.page), 'person', 'a wrong password deletes nothing');
    await screenshot(ben.page, 'account/delete-confirm-phone');
    await ben.page.fill('#delete-password', 'a newer secret');
    await ben.page.getByRole('button', {name: 'Yes, delete my account'}).click();
    await ben.page.waitForSelector('#account-view[data-kind="guest"]');
    assert.equal(await ben.page.textContent('#account-status'), 'Your account is deleted.');
    await waitHeaderName(ben.page, 'Guest');

    // Deleted: its name and password log no one in any more.
    await login(ben.page, 'Ben-C', 'a newer secret');
    assert.equal(await errorText(ben.page), 'Wrong name or password.');
    assert.equal(await kind(ben.page), 'guest');

    // French: the same screen in real French.
    await anna.page.selectOption('#language', 'fr');
    await anna.page.waitForSelector('body[data-ready="true"]');
    await anna.page.goto(`${base}/#/account`);
    await anna.page.waitForSelector('#account-view[data-kind="person"]');
    await anna.page.getByRole('button', {name: 'Se déconnecter'}).waitFor();
    assert.equal(await anna.page.textContent('#account-name'), 'Connecté en tant que Anna_B.');
    await screenshot(anna.page, 'account/person-desktop-fr');
  });
});

// Registers through the screen; the page is then logged in.
async function registerThrough(page, name, password) {
  await openAccount(page);
  await register(page, name, password);
  await page.waitForSelector('#account-view[data-kind="person"]');
  await waitHeaderName(page, name);
}

async function waitForTableAddress(page) {
  await page.waitForFunction(() => /^#\/table\/[A-Za-z0-9_-]+$/.test(location.hash));
  return decodeURIComponent((await page.evaluate(() => location.hash)).slice('#/table/'.length));
}

// The page whose colour is to move, and the other one.
async function moverAndOther(a, b) {
  const da = await data(a);
  return da.turn === da.myColor ? [a, b] : [b, a];
}

async function leaderboardElo(page) {
  return page.$$eval('#leaderboard-table tbody tr[data-player]', (rows) =>
    Object.fromEntries(rows.map((r) => [r.querySelector('a').textContent, Number(r.querySelector('.elo').textContent)])),
  );
}

test('two accounts play a rated table from the lobby until one resigns; the leaderboard shows one up, one down', async () => {
  await withBrowsers([{width: 1100, height: 1000}, {width: 1100, height: 1000}], async (cara, dan) => {
    const c = cara.page;
    const d = dan.page;
    await registerThrough(c, 'Cara', 'cara password');
    await registerThrough(d, 'Dan', 'dan password');
    // Out and in again: still Cara, still allowed rated tables.
    await logout(c);
    await login(c, 'cara', 'cara password');
    await c.waitForSelector('#account-view[data-kind="person"]');

    // Cara makes a rated table in the lobby (a guest could not tick the box).
    await c.goto(`${base}/#/`);
    await c.waitForSelector('body[data-ready="true"]');
    await c.click('#create-table');
    await c.waitForSelector('#create-dialog[open]');
    await c.selectOption('#create-variant', 'international');
    assert.equal(await c.isDisabled('#create-rated'), false, 'an account may ask for a rated table');
    await c.check('#create-rated');
    await c.click('#create-submit');
    await c.waitForSelector('#create-result:not([hidden])');
    const invite = await c.inputValue('#invite-link');
    await c.click('#open-table');
    const tableId = await waitForTableAddress(c);

    // Dan joins through the invite link; both play on the table screen.
    await d.goto(invite);
    assert.equal(await waitForTableAddress(d), tableId);
    for (const page of [c, d]) await waitForData(page, {result: 'GAME_RESULT_ONGOING'});
    const table = await c.evaluate(async (id) => (await (await fetch(`/api/tables/${id}`)).json()).table, tableId);
    assert.equal(table.rated, true, 'the table is rated');
    for (let i = 0; i < 4; i++) {
      const [mover] = await moverAndOther(c, d);
      await waitForMyTurn(mover);
      const state = await serverGame(mover);
      await playByTaps(mover, state.legalMoves[0]);
    }
    const [resigner, winner] = await moverAndOther(c, d);
    await waitForMyTurn(resigner);
    await buttonNamed(resigner, 'Resign').click();
    await buttonNamed(resigner, 'Yes, resign').click();
    for (const page of [c, d]) await waitForData(page, {reason: 'RESULT_REASON_RESIGNATION'});
    const winnerName = winner === c ? 'Cara' : 'Dan';
    const loserName = winner === c ? 'Dan' : 'Cara';

    // The table screen shows each player's rating change once the rating
    // service has recorded the game: up for the winner, down for the loser.
    for (const page of [c, d]) {
      await page.waitForSelector('.rating-change.up:not([hidden])', {timeout: 30000});
      const shown = await page.$$eval('.rating-change:not([hidden])', (nodes) =>
        nodes.map((n) => ({text: n.textContent || '', up: n.classList.contains('up')})));
      assert.equal(shown.length, 2, `both players' changes shown: ${JSON.stringify(shown)}`);
      assert.ok(shown.some((s) => s.up && /^\+\d+/.test(s.text)), `a gain shown: ${JSON.stringify(shown)}`);
      assert.ok(shown.some((s) => !s.up && /^\u2212\d+/.test(s.text)), `a loss shown: ${JSON.stringify(shown)}`);
    }
    await screenshot(winner, 'account/rating-change-at-game-end');

    // The rating service takes the result from game_state's stream: poll the leaderboard.
    for (const page of [c, d]) {
      const deadline = Date.now() + 30000;
      let elo = {};
      for (;;) {
        await page.goto(`${base}/#/leaderboard/international`);
        await page.waitForSelector('#leaderboard-table tbody tr');
        elo = await leaderboardElo(page);
        if (winnerName in elo && loserName in elo) break;
        assert.ok(Date.now() < deadline, `both on the leaderboard within 30 s; it shows ${JSON.stringify(elo)}`);
        await new Promise((r) => setTimeout(r, 500));
      }
      assert.ok(elo[winnerName] > 1500, `the winner goes up from 1500: ${JSON.stringify(elo)}`);
      assert.ok(elo[loserName] < 1500, `the loser goes down from 1500: ${JSON.stringify(elo)}`);
    }
    await screenshot(c, 'account/leaderboard-after-rated-game');
  });
});
