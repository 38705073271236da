// The table screen (#/table/<id>) as players and spectators meet it, in
// Debian's chromium against the real gateway, game_state, matchmaking,
// clock, bot and chat on a private Redis (tests-only short times: 1 s per
// move, a 4 s disconnect rule). Tables are set up through the lobby's REST
// routes; everything else is done on the page, by taps and buttons.
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
  apiOk,
  assertButtonsNamed,
  buttonNamed,
  data,
  home,
  openTable,
  playByTaps,
  screen,
  serverGame,
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
  // The creator's page offers the link to send.
  assert.equal(await a.inputValue(`${screen} .invite-link`), `${base}${created.invitePath}`);
  await b.goto(`${base}${created.invitePath}`);
  await b.waitForSelector(`${screen}[data-table-id="${tableId}"][data-connection="open"] #board`);
  await waitForData(a, {result: 'GAME_RESULT_ONGOING'});
  await waitForData(b, {result: 'GAME_RESULT_ONGOING'});
  return {tableId, invitePath: created.invitePath};
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
      await playByTaps(page, move);
      if (!(await myTurnOrGameOver(page))) return null;
      state = await serverGame(page);
      multi = multiIn(state);
      if (multi) return multi;
      if (i === options.length - 1) break;
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
    const top1 = (await page.locator(`${screen} #board rect.sq[data-square="1"]`).boundingBox()).y;
    const top32 = (await page.locator(`${screen} #board rect.sq[data-square="32"]`).boundingBox()).y;
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

test('two players play international through an invite link while a spectator watches and chats; a draw offer accepted; a rematch with colours swapped; a reload keeps the game and the score', async () => {
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

test('a player who closes the tab loses after the disconnect rule', async () => {
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
  });
});

test('a phone plays against the computer by taps, chat below the board', async () => {
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
  });
});
