// The table screen (#/table/<id>) as players and spectators meet it, in
// Debian's chromium against the real gateway, game_state, matchmaking,
// clock, bot and chat on a private Redis (tests-only short times: 1 s per
// move, a 4 s disconnect rule). Tables are set up through the lobby's REST
// routes; everything else is done on the page, by taps and buttons: seating
// the computer, leaving (with and without a confirmation), the federation's
// coordinates on the board and in the move list.
//
// Run alone (ctest -R e2e.table does the same):
//   (cd tests/e2e && npm ci)
//   buildslot ninja -C build/asan -j2 game_state matchmaking clock bot chat gateway
//   DRAUGHTS_BUILD_DIR=build/asan node --test tests/e2e/table.e2e.test.mjs
// Screenshots: build/e2e-screenshots/table/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {after, before, test} from 'node:test';

import {openBrowser, screenshotDir} from './lib/app_driver.mjs';
import {
  api,
  apiOk,
  assertButtonsNamed,
  buttonNamed,
  data,
  home,
  openTable,
  playByTaps,
  screen,
  serverGame,
  squareBoxes,
  statusText,
  waitForData,
  waitForMyTurn,
} from './lib/table_driver.mjs';
import {TableServers} from './lib/table_servers.mjs';

const servers = new TableServers();
let base = '';
let failed = false;
const shots = path.join(screenshotDir, 'table');
const browsers = [];

before(async () => {
  fs.rmSync(shots, {recursive: true, force: true});
  fs.mkdirSync(shots, {recursive: true});
  await servers.start();
  base = servers.baseUrl;
});

after(async () => {
  for (const b of browsers) await b.close().catch(() => {});
  await servers.stop({keepLogs: failed});
  if (failed) console.log(`server logs kept in ${servers.dir}`);
});

async function browser(viewport = {width: 1100, height: 950}, options = {}) {
  const b = await openBrowser(viewport, options);
  browsers.push(b);
  return b;
}

async function shot(page, name) {
  await page.screenshot({path: path.join(shots, `${name}.png`), fullPage: true});
}

// Runs a scenario; on failure keeps a screenshot of every page and the logs.
async function scenario(name, pages, fn) {
  try {
    await fn();
  } catch (e) {
    failed = true;
    for (const [i, page] of pages().entries()) await shot(page, `${name}-failed-${i}`).catch(() => {});
    throw e;
  }
}

// A table for two people, created by `a`'s page; `b` opens the invite link
// in its browser (the lobby joins and shows the table); the game starts.
async function tableForTwo(a, b, body) {
  await home(a, base);
  const created = await apiOk(a, 'POST', '/api/tables', body);
  const tableId = created.table.tableId;
  assert.match(created.invitePath, /^\/join\/\S+$/);
  await openTable(a, base, tableId);
  await waitForData(a, {status: 'TABLE_STATUS_WAITING'});
  // The creator's page offers the link to send, and copies it.
  assert.equal(await a.inputValue(`${screen} .invite-link`), `${base}${created.invitePath}`);
  await a.context().grantPermissions(['clipboard-read', 'clipboard-write'], {origin: base});
  await buttonNamed(a, 'Copy invite link').click();
  await buttonNamed(a, 'Copied').waitFor();
  assert.equal(await a.evaluate(() => navigator.clipboard.readText()), `${base}${created.invitePath}`);
  await b.goto(`${base}${created.invitePath}`);
  await b.waitForSelector(`${screen}[data-table-id="${tableId}"][data-connection="open"] #board`);
  await waitForData(a, {result: 'GAME_RESULT_ONGOING'});
  await waitForData(b, {result: 'GAME_RESULT_ONGOING'});
  return {tableId, invitePath: created.invitePath};
}

// The lobby is back on screen (the start page, its table list loaded).
async function waitForLobby(page) {
  await page.waitForSelector('#start-view:not([hidden]) #tables[data-loaded]');
  assert.match(await page.evaluate(() => location.hash), /^(#\/?)?$/);
}

// The board's labels: numbers in squares ({square: text}) and coordinates on the edges.
async function boardLabels(page) {
  return page.$eval(`${screen} #board`, (svg) => {
    const inside = (text, rect) => {
      const r = rect.getBoundingClientRect();
      const t = text.getBoundingClientRect();
      const x = t.x + t.width / 2;
      const y = t.y + t.height / 2;
      return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
    };
    const squares = [...svg.querySelectorAll('rect.sq[data-square]')];
    const numbers = {};
    for (const text of svg.querySelectorAll('text.num')) {
      const rect = squares.find((r) => inside(text, r));
      if (rect) numbers[rect.dataset.square] = text.textContent;
    }
    const edge = (kind) =>
      [...svg.querySelectorAll(`text.coord.${kind}`)].map((t) => {
        const b = t.getBoundingClientRect();
        return {name: t.textContent, x: b.x + b.width / 2, y: b.y + b.height / 2};
      });
    return {numbers, count: svg.querySelectorAll('text.num').length, files: edge('file'), ranks: edge('rank')};
  });
}

// The page whose colour is to move, and the other one.
async function moverAndOther(a, b) {
  const da = await data(a);
  return da.turn === da.myColor ? [a, b] : [b, a];
}

// Plays `count` moves, each by the page to move, by taps (the first legal move).
async function playMoves(a, b, count) {
  for (let i = 0; i < count; i++) {
    const [mover] = await moverAndOther(a, b);
    await waitForMyTurn(mover);
    const state = await serverGame(mover);
    await playByTaps(mover, state.legalMoves[0]);
  }
}

// True once it is Black's (our) turn on an interactive board, false if the
// game ended first.
async function myTurnOrGameOver(page) {
  const {myColor} = await data(page);
  const myTurn = `${screen}[data-turn="${myColor}"][data-pending="false"][data-result="GAME_RESULT_ONGOING"] #board.interactive`;
  const over = `${screen}[data-result^="GAME_RESULT_"]:not([data-result="GAME_RESULT_ONGOING"])`;
  await page.waitForSelector(`${myTurn}, ${over}`, {timeout: 30000});
  return (await data(page)).result === 'GAME_RESULT_ONGOING';
}

// Plays our moves (undoing to look ahead) until a capture of two or more
// pieces is ours; null if the game ended before.
async function playUntilMultiCapture(page) {
  const multiIn = (state) => state.legalMoves.find((m) => m.captured.length >= 2) || null;
  for (let turn = 0; turn < 40; turn++) {
    if (!(await myTurnOrGameOver(page))) return null;
    let state = await serverGame(page);
    let multi = multiIn(state);
    if (multi) return multi;
    const candidates = state.legalMoves.filter((m) => m.captured.length > 0);
    const options = candidates.length > 0 ? candidates.slice(0, 1) : state.legalMoves.slice(0, 4);
    for (const [i, move] of options.entries()) {
      const ply = Number((await data(page)).ply);
      // Moves and take-backs at a player's pace: the table socket refuses
      // more than 5 actions a second (a burst here was refused once).
      await page.waitForTimeout(250);
      await playByTaps(page, move);
      if (!(await myTurnOrGameOver(page))) return null;
      state = await serverGame(page);
      multi = multiIn(state);
      if (multi) return multi;
      if (i === options.length - 1) break;
      await page.waitForTimeout(250);
      await buttonNamed(page, 'Take back my move').click();
      await waitForData(page, {ply: String(ply), pending: 'false'});
    }
  }
  return null;
}

test('a guest plays English against Easy, takes a multi-capture by tapping each landing square, then undoes a move', async () => {
  const {page} = await browser();
  await scenario('computer', () => [page], async () => {
    await home(page, base);
    const created = await apiOk(page, 'POST', '/api/play-computer', {variant: 'english', level: 'BOT_LEVEL_EASY', color: 'COLOR_BLACK'});
    await openTable(page, base, created.table.tableId);
    await waitForData(page, {role: 'player', myColor: 'black'});
    // Black at the bottom: square 1 (Black's back row... top) is drawn above square 32.
    const [{y: top1}, {y: top32}] = await squareBoxes(page, [1, 32]);
    assert.ok(top1 > top32, 'your pieces (Black, on 1-12) are at the bottom');
    assert.equal(await buttonNamed(page, 'Offer a draw').isVisible(), false, 'no draw offers to the computer');
    await assertButtonsNamed(page);

    // Play until a capture of two or more pieces is ours to take (captures
    // are compulsory). The computer's replies are its own, so look ahead the
    // way a player may here: try a move, and if the reply leaves no double
    // jump, take it back (undo) and try another; keep the last one tried.
    // Easy may still win before one comes up: then a new game is started.
    let multi = null;
    for (let attempt = 0; attempt < 3 && !multi; attempt++) {
      if (attempt > 0) {
        const again = await apiOk(page, 'POST', '/api/play-computer', {variant: 'english', level: 'BOT_LEVEL_EASY', color: 'COLOR_BLACK'});
        await openTable(page, base, again.table.tableId);
        await waitForData(page, {role: 'player', myColor: 'black', result: 'GAME_RESULT_ONGOING'});
      }
      multi = await playUntilMultiCapture(page);
    }
    assert.ok(multi, 'a multi-capture came up within 40 moves in one of three games');
    assert.match(await statusText(page), /Your move: you must capture/);
    await shot(page, 'computer-must-capture');
    const before = Number((await data(page)).ply);
    const takenBefore = (await serverGame(page)).game.black.piecesCaptured;
    await playByTaps(page, multi);
    const afterMove = await serverGame(page);
    // The record may keep the short form ("6x24" for "6x15x24").
    const short = `${multi.path[0]}x${multi.path[multi.path.length - 1]}`;
    assert.ok([multi.notation, short].includes(afterMove.game.moves[before]), `played ${afterMove.game.moves[before]}`);
    assert.equal(afterMove.game.black.piecesCaptured, takenBefore + multi.captured.length, 'the whole capture was played');

    // Undo: back to before the capture (the computer's reply taken back too).
    await waitForMyTurn(page, 30000);
    await buttonNamed(page, 'Take back my move').click();
    await waitForData(page, {ply: String(before), turn: 'black', pending: 'false'});
    const undone = await serverGame(page);
    assert.equal(undone.game.ply, before);
    assert.ok(undone.legalMoves.some((m) => m.notation === multi.notation), 'the capture can be played again');
    await shot(page, 'computer-after-undo');
  });
});

test('two players play international through an invite link while a spectator watches and chats; a draw offer declined, then one accepted; a rematch with colours swapped; a reload keeps the game and the score', async () => {
  const a = (await browser()).page;
  const b = (await browser()).page;
  const c = (await browser()).page;
  await scenario('friends', () => [a, b, c], async () => {
    const {tableId} = await tableForTwo(a, b, {variant: 'international', timePerMove: '60s'});
    const colors = [(await data(a)).myColor, (await data(b)).myColor].sort();
    assert.deepEqual(colors, ['black', 'white'], 'one colour each');
    // The spectator: told it is watching, no action buttons.
    await home(c, base);
    await openTable(c, base, tableId);
    await waitForData(c, {role: 'spectator'});
    assert.ok(await c.isVisible(`${screen} .table-watching`), 'the spectator banner shows');
    assert.match(await statusText(c), /^Watching · /);
    assert.equal(await c.isVisible(`${screen} .table-actions`), false, 'no action buttons for a spectator');
    await playMoves(a, b, 4);
    await waitForData(c, {ply: '4'});

    // The spectator writes; both players read it.
    await c.fill(`${screen} .chat-form input`, 'Nice opening!');
    await buttonNamed(c, 'Send').click();
    for (const page of [a, b, c]) {
      await page.waitForSelector(`${screen} .chat-line.spectator:has-text("Nice opening!")`);
    }
    // The move timer of the side to move counts down on every page.
    await a.waitForSelector(`${screen} .seat-card.to-move .move-timer:not([hidden])`);
    await assertButtonsNamed(a);
    await shot(a, 'friends-player');
    await shot(c, 'friends-spectator');

    // A draw offered and declined: the game goes on.
    const [firstOfferer, firstAnswerer] = await moverAndOther(a, b);
    await buttonNamed(firstOfferer, 'Offer a draw').click();
    await firstAnswerer.waitForSelector(`${screen} .table-status:has-text("offers a draw")`);
    await buttonNamed(firstAnswerer, 'Decline').click();
    await firstOfferer.waitForSelector(`${screen} .table-status:has-text("The draw offer was declined")`);
    await waitForData(firstOfferer, {result: 'GAME_RESULT_ONGOING', pending: 'false'});
    await playMoves(a, b, 1);

    // A draw offered and accepted.
    const [offerer, answerer] = await moverAndOther(a, b);
    await buttonNamed(offerer, 'Offer a draw').click();
    await answerer.waitForSelector(`${screen} .table-status:has-text("offers a draw")`);
    await buttonNamed(answerer, 'Accept the draw').click();
    for (const page of [a, b, c]) await waitForData(page, {result: 'GAME_RESULT_DRAW', reason: 'RESULT_REASON_DRAW_AGREED'});
    await waitForData(a, {status: 'TABLE_STATUS_FINISHED'});
    await a.waitForSelector(`${screen} .table-score[data-score="0.5-0.5"]`);
    await shot(a, 'friends-draw');

    // Both vote to play again: a new game, colours swapped.
    const firstGame = (await data(a)).gameId;
    const colorA = (await data(a)).myColor;
    await buttonNamed(a, 'Play again').click();
    await b.waitForSelector(`${screen} .rematch-text:has-text("Your opponent wants to play again")`);
    await buttonNamed(b, 'Play again').click();
    for (const page of [a, b]) await waitForData(page, {result: 'GAME_RESULT_ONGOING', ply: '0'});
    const second = await data(a);
    assert.notEqual(second.gameId, firstGame, 'a new game');
    assert.notEqual(second.myColor, colorA, 'colours swapped');
    await playMoves(a, b, 2);
    await shot(a, 'friends-rematch');

    // A reload: the same game, the same moves, the same score.
    await a.reload();
    await a.waitForSelector(`${screen}[data-connection="open"][data-ply="2"]`);
    const reloaded = await data(a);
    assert.equal(reloaded.gameId, second.gameId);
    assert.equal(reloaded.myColor, second.myColor);
    await a.waitForSelector(`${screen} .table-score[data-score="0.5-0.5"]`);
    assert.equal(await a.locator(`${screen} .moves .move[data-ply]`).count(), 2, 'the move list is back');
    await shot(a, 'friends-reloaded');
  });
});

test('a move timer running out plays an automatic move, shown as such, and three in a row lose', async () => {
  const {page} = await browser();
  await scenario('timeout', () => [page], async () => {
    await home(page, base);
    const created = await apiOk(page, 'POST', '/api/play-computer', {
      variant: 'international', level: 'BOT_LEVEL_EASY', color: 'COLOR_WHITE', timePerMove: '1s',
    });
    await openTable(page, base, created.table.tableId);
    await waitForData(page, {myColor: 'white'});
    // Nobody touches the board: the timer warns (1 s is inside the last 10 s),
    // then the clock plays for White each time.
    await page.waitForSelector(`${screen} .seat-card[data-color="white"] .move-timer.warning:not([hidden])`, {timeout: 5000});
    await page.waitForSelector(`${screen} .moves .move.automatic[data-ply="1"]`, {timeout: 15000});
    await page.waitForSelector(`${screen} .seat-card[data-color="white"] .timeouts:not([hidden])`);
    await shot(page, 'timeout-automatic');
    await waitForData(page, {result: 'GAME_RESULT_BLACK_WINS', reason: 'RESULT_REASON_TIMEOUTS'}, 30000);
    assert.equal(await page.locator(`${screen} .moves .move.automatic[data-color="white"]`).count(), 3);
    assert.match(await statusText(page), /You lost/);
    await shot(page, 'timeout-lost');
  });
});

test('a player who closes the tab loses after the disconnect rule; the winner leaves the table at once', async () => {
  const a = (await browser()).page;
  const bBrowser = await browser();
  const b = bBrowser.page;
  await scenario('abandon', () => [a], async () => {
    await tableForTwo(a, b, {variant: 'international', timePerMove: '60s'});
    await playMoves(a, b, 1);
    const colorB = (await data(b)).myColor;
    await b.close();
    await a.waitForSelector(`${screen} .seat-card[data-color="${colorB}"][data-presence="disconnected"]`, {timeout: 15000});
    await shot(a, 'abandon-disconnected');
    const winner = colorB === 'white' ? 'BLACK' : 'WHITE';
    await waitForData(a, {result: `GAME_RESULT_${winner}_WINS`, reason: 'RESULT_REASON_ABANDONED'}, 30000);
    assert.match(await statusText(a), /You won/);
    await shot(a, 'abandon-won');
    // After the game nothing is at stake: "Leave the table" leaves at once.
    const {tableId} = await data(a);
    const me = (await apiOk(a, 'GET', '/api/session')).playerId;
    await buttonNamed(a, 'Leave the table').click();
    await waitForLobby(a);
    const left = await api(a, 'GET', `/api/tables/${tableId}`);
    const seated = left.status === 200 ? left.json.table.seats.filter((s) => s.occupant && s.occupant.playerId === me) : [];
    assert.deepEqual(seated, [], 'the seat is given up');
  });
});

test('a phone plays against the computer by taps, chat below the board, and resigns after a confirmation', async () => {
  const {page} = await browser({width: 390, height: 844}, {touch: true});
  await scenario('phone', () => [page], async () => {
    await home(page, base);
    const created = await apiOk(page, 'POST', '/api/play-computer', {variant: 'international', level: 'BOT_LEVEL_EASY', color: 'COLOR_WHITE'});
    await openTable(page, base, created.table.tableId);
    for (let i = 0; i < 3; i++) {
      await waitForMyTurn(page, 30000);
      const state = await serverGame(page);
      await playByTaps(page, state.legalMoves[i % state.legalMoves.length]);
    }
    await waitForMyTurn(page, 30000);
    const boardBox = await page.locator(`${screen} #board`).boundingBox();
    const chatBox = await page.locator(`${screen} .chat-panel`).boundingBox();
    assert.ok(chatBox.y > boardBox.y + boardBox.height, 'the chat is below the board');
    assert.ok(boardBox.width <= 390 && boardBox.width > 340, `the board fills the width (${boardBox.width})`);
    await shot(page, 'phone');
    // Resigning asks first; "Keep playing" changes nothing.
    await buttonNamed(page, 'Resign').tap();
    const confirm = page.getByRole('alertdialog', {name: 'Really resign?'});
    await confirm.waitFor();
    await shot(page, 'phone-resign-confirm');
    await buttonNamed(page, 'Keep playing').tap();
    assert.equal(await confirm.isVisible(), false);
    await waitForData(page, {result: 'GAME_RESULT_ONGOING'});
    await buttonNamed(page, 'Resign').tap();
    await buttonNamed(page, 'Yes, resign').tap();
    await waitForData(page, {result: 'GAME_RESULT_BLACK_WINS', reason: 'RESULT_REASON_RESIGNATION'});
    assert.match(await statusText(page), /You lost/);
  });
});

test('the creator seats the computer in the empty seat; the Russian board reads like its move list; leaving a game asks first, loses it and returns to the lobby', async () => {
  const {page} = await browser();
  await scenario('bots', () => [page], async () => {
    await home(page, base);
    const {variants} = await apiOk(page, 'GET', '/api/variants');
    const russian = variants.find((v) => v.id === 'russian');
    const international = variants.find((v) => v.id === 'international');
    assert.equal(russian.notation.captureSeparator, ':', 'Russian captures are written with a colon');
    assert.equal(international.notation.captureSeparator, 'x');

    // An international table: the labels are its standard numbers, and there
    // is no other notation to choose. Nobody came: leaving needs no confirmation.
    const alone = await apiOk(page, 'POST', '/api/tables', {variant: 'international'});
    await openTable(page, base, alone.table.tableId);
    await waitForData(page, {status: 'TABLE_STATUS_WAITING'});
    const numeric = await boardLabels(page);
    assert.equal(numeric.count, 50);
    for (const [square, text] of Object.entries(numeric.numbers)) assert.equal(text, international.notation.squareNames[square - 1]);
    assert.deepEqual(Object.entries(numeric.numbers).filter(([sq, text]) => sq !== text), [], 'international: each square its own number');
    assert.equal(await page.isVisible(`${screen} input[name="coordinates"]`), false, 'no notation to switch to');
    await buttonNamed(page, 'Leave the table').click();
    await waitForLobby(page);
    assert.equal((await api(page, 'GET', `/api/tables/${alone.table.tableId}`)).status, 404, 'a table left by everyone closes');

    // A Russian table of one's own: while the seat is open the creator may seat the computer.
    const created = await apiOk(page, 'POST', '/api/tables', {variant: 'russian'});
    const tableId = created.table.tableId;
    await openTable(page, base, tableId);
    await waitForData(page, {status: 'TABLE_STATUS_WAITING'});
    await page.waitForSelector(`${screen} .bots-row:not([hidden])`);
    await page.getByRole('combobox', {name: 'Computer level'}).selectOption('BOT_LEVEL_MEDIUM');
    await assertButtonsNamed(page);
    await shot(page, 'bots-offered');
    await buttonNamed(page, 'Seat the computer').click();
    // The computer sits down, the table is full, the game starts.
    await waitForData(page, {result: 'GAME_RESULT_ONGOING'});
    assert.equal(await page.isVisible(`${screen} .bots-row`), false);
    await page.waitForSelector(`${screen} .seat-card[data-presence="bot"] .name:has-text("Computer (Medium)")`);
    const seated = await apiOk(page, 'GET', `/api/tables/${tableId}`);
    assert.equal(seated.table.status, 'TABLE_STATUS_PLAYING');
    const bot = seated.table.seats.find((s) => s.occupant && s.occupant.kind === 'SEAT_KIND_BOT');
    assert.equal(bot && bot.occupant.botLevel, 'BOT_LEVEL_MEDIUM');

    // Russian names squares by coordinates: files and ranks on the board's
    // edges (on by default), each beside the squares of its name.
    const onEdges = await boardLabels(page);
    assert.equal(onEdges.count, 0, 'no numbers inside the squares');
    assert.equal(onEdges.files.map((f) => f.name).sort().join(''), 'abcdefgh');
    assert.equal(onEdges.ranks.map((r) => r.name).sort().join(''), '12345678');
    assert.equal(await page.isChecked(`${screen} input[name="coordinates"]`), true);
    assert.match(await page.textContent(`${screen} label:has(input[name="coordinates"])`), /Coordinates on the edges/);
    const names = ['a1', 'h8', 'c3', 'f6'];
    const boxes = await squareBoxes(page, names.map((name) => russian.notation.squareNames.indexOf(name) + 1));
    for (const [i, name] of names.entries()) {
      const at = boxes[i];
      const file = onEdges.files.find((f) => f.name === name[0]);
      const rank = onEdges.ranks.find((r) => r.name === name[1]);
      assert.ok(file.x >= at.x && file.x <= at.x + at.width, `file ${name[0]} above/below ${name}`);
      assert.ok(rank.y >= at.y && rank.y <= at.y + at.height, `rank ${name[1]} beside ${name}`);
    }
    // The move list writes the same names (the server records standard numbers).
    await waitForMyTurn(page, 30000);
    await playByTaps(page, (await serverGame(page)).legalMoves[0]);
    await page.waitForSelector(`${screen} .moves .move[data-ply="1"]`);
    const moveList = () => page.$$eval(`${screen} .moves .move[data-ply]`, (cells) => cells.map((c) => c.textContent));
    const recorded = async () => (await serverGame(page)).game.moves;
    const federation = (move) => move.split(/([-x])/).map((p) => (p === 'x' ? ':' : p === '-' ? '-' : russian.notation.squareNames[p - 1])).join('');
    // Read the page first: the server's record may have moved on since, never back.
    const written = await moveList();
    assert.ok(written.length >= 1 && written.every((m) => /^[a-h][1-8]([-:][a-h][1-8])+$/.test(m)), `moves ${written}`);
    assert.deepEqual(written, (await recorded()).slice(0, written.length).map(federation));
    await shot(page, 'bots-russian-coordinates');

    // Switched off: the standard numbers in the squares; kept over a reload.
    await page.uncheck(`${screen} input[name="coordinates"]`);
    const standard = await boardLabels(page);
    assert.equal(standard.count, 32);
    assert.deepEqual(Object.entries(standard.numbers).filter(([sq, text]) => sq !== text), [], 'each square its standard number');
    assert.equal(standard.files.length + standard.ranks.length, 0);
    const numbered = await moveList();
    assert.deepEqual(numbered, (await recorded()).slice(0, numbered.length), 'the moves in standard numbers too');
    await page.reload();
    await page.waitForSelector(`${screen}[data-connection="open"][data-result="GAME_RESULT_ONGOING"] #board`);
    assert.equal(await page.isChecked(`${screen} input[name="coordinates"]`), false);
    assert.equal((await boardLabels(page)).count, 32);
    await shot(page, 'bots-russian-numbers');
    await page.check(`${screen} input[name="coordinates"]`);
    assert.equal((await boardLabels(page)).files.length, 8);

    // Leaving during the game: a confirmation says it loses; "stay" changes nothing.
    const {gameId, myColor} = await data(page);
    await buttonNamed(page, 'Leave the table').click();
    const confirm = page.getByRole('alertdialog', {name: 'Leaving now gives up your seat and loses this game.'});
    await confirm.waitFor();
    await shot(page, 'bots-leave-confirm');
    await buttonNamed(page, 'Stay at the table').click();
    assert.equal(await confirm.isVisible(), false);
    await waitForData(page, {result: 'GAME_RESULT_ONGOING', connection: 'open'});
    await buttonNamed(page, 'Leave the table').click();
    await buttonNamed(page, 'Yes, leave the table').click();
    await waitForLobby(page);
    const game = await apiOk(page, 'GET', `/api/games/${encodeURIComponent(gameId)}`);
    assert.equal(game.game.result, myColor === 'white' ? 'GAME_RESULT_BLACK_WINS' : 'GAME_RESULT_WHITE_WINS');
    assert.equal(game.game.reason, 'RESULT_REASON_ABANDONED');
    assert.equal((await api(page, 'GET', `/api/tables/${tableId}`)).status, 404, 'no person left: the table closed');
    assert.deepEqual(browsers.at(-1).errors, [], 'no script errors');
  });
});

test('a player leaves a game at a table where the computer plays for the absent: asked first, the computer plays on, the other sees it standing in', async () => {
  const a = (await browser()).page;
  const b = (await browser()).page;
  await scenario('leave-computer', () => [a, b], async () => {
    await tableForTwo(a, b, {variant: 'international', timePerMove: '60s', options: {computerPlaysForAbsent: true}});
    await playMoves(a, b, 1);
    const colorB = (await data(b)).myColor;
    const nameB = (await apiOk(b, 'GET', '/api/session')).displayName;
    await buttonNamed(b, 'Leave the table').click();
    await b.getByRole('alertdialog', {name: 'Leaving now gives up your seat: the computer plays this game on for you.'}).waitFor();
    await buttonNamed(b, 'Yes, leave the table').click();
    await waitForLobby(b);
    // The other player sees the computer standing in, and the game goes on.
    const card = `${screen} .seat-card[data-color="${colorB}"]`;
    await a.waitForSelector(`${card}[data-presence="computer"]`);
    assert.match(await a.textContent(`${card} .presence`), /the computer plays for them/);
    assert.match(await a.textContent(`${card} .name`), new RegExp(nameB));
    await shot(a, 'leave-computer-standing-in');
    const ply = Number((await data(a)).ply);
    if ((await data(a)).turn !== (await data(a)).myColor) await waitForData(a, {ply: String(ply + 1)}, 30000);
    await waitForMyTurn(a, 30000);
    const mine = Number((await data(a)).ply);
    await playByTaps(a, (await serverGame(a)).legalMoves[0]);
    // The computer answers for the player who left.
    await waitForMyTurn(a, 30000);
    assert.ok(Number((await data(a)).ply) >= mine + 2, 'the computer replied');
  });
});
