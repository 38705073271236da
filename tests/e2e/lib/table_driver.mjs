// Drives the table screen (#/table/<id>) in a real browser the way a player
// does: taps on squares, its buttons by their accessible names, its chat;
// tables are set up through the lobby's REST routes (docs/WEB_PROTOCOL.md,
// "Lobby") with the page's own session cookie.
import assert from 'node:assert/strict';

export const screen = '.table-screen';

// The boxes ({x, y, width, height}) of board squares by number, read in one
// evaluation once every one is laid out: the board is redrawn when the
// table's data changes, so a square found by one call may be gone by the
// next (locator.boundingBox() gave null in CI).
export async function squareBoxes(page, squares) {
  const boxes = await page.waitForFunction(
    ({board, squares}) => {
      const found = squares.map((n) => {
        const r = document.querySelector(`${board} rect.sq[data-square="${n}"]`)?.getBoundingClientRect();
        return r && r.height > 0 ? {x: r.x, y: r.y, width: r.width, height: r.height} : null;
      });
      return found.every((box) => box !== null) ? found : null;
    },
    {board: `${screen} #board`, squares},
  );
  return boxes.jsonValue();
}

// A REST call from the page (its session cookie); a session is made first.
export async function api(page, method, path, body) {
  return page.evaluate(
    async ({method, path, body}) => {
      const ask = () =>
        fetch(path, {
          method,
          headers: body === undefined ? {} : {'Content-Type': 'application/json'},
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      let response = await ask();
      if (response.status === 401) {
        await fetch('/api/session', {method: 'POST'});
        response = await ask();
      }
      const text = await response.text();
      let json = null;
      try {
        json = JSON.parse(text);
      } catch {
        // not JSON
      }
      return {status: response.status, json, text};
    },
    {method, path, body},
  );
}

export async function apiOk(page, method, path, body) {
  const answer = await api(page, method, path, body);
  assert.equal(answer.status, 200, `${method} ${path}: ${answer.status} ${answer.text}`);
  return answer.json;
}

// Opens the site once (so the page has an origin and a session).
export async function home(page, base) {
  await page.goto(`${base}/`);
  await page.waitForSelector('body[data-ready="true"]');
}

export async function openTable(page, base, tableId) {
  await page.goto(`${base}/#/table/${encodeURIComponent(tableId)}`);
  await page.waitForSelector(`${screen}[data-table-id="${tableId}"][data-connection="open"] #board`);
}

export async function data(page) {
  return page.$eval(screen, (n) => ({...n.dataset}));
}

// Waits until the screen's data attributes match `want` (strings), or fails saying what they are.
export async function waitForData(page, want, timeout = 20000) {
  const selector = `${screen}${Object.entries(want)
    .map(([k, v]) => `[data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${v}"]`)
    .join('')}`;
  try {
    await page.waitForSelector(selector, {timeout});
  } catch (e) {
    throw new Error(`waiting for ${JSON.stringify(want)}: the screen shows ${JSON.stringify(await data(page))} / "${await statusText(page)}" (${e.message.split('\n')[0]})`);
  }
}

export async function statusText(page) {
  return (await page.textContent(`${screen} .table-status`).catch(() => '')) || '';
}

// The server's view of the table's current game (legal moves of the side to move).
export async function serverGame(page) {
  const {gameId} = await data(page);
  return apiOk(page, 'GET', `/api/games/${encodeURIComponent(gameId)}`);
}

export function square(n) {
  return `${screen} #board rect.sq[data-square="${n}"]`;
}

export async function tapSquare(page, n) {
  if (page.useTouch) await page.tap(square(n));
  else await page.click(square(n));
}

// Waits for this page's turn (its colour to move, nothing on its way).
export async function waitForMyTurn(page, timeout = 20000) {
  const {myColor} = await data(page);
  await waitForData(page, {turn: myColor, pending: 'false', result: 'GAME_RESULT_ONGOING'}, timeout);
  await page.waitForSelector(`${screen} #board.interactive`, {timeout});
}

// Plays `move` (a LegalMove) by tapping its piece then each landing square,
// as a player does; stops early once the client sent it (one way left).
export async function playByTaps(page, move) {
  const before = Number((await data(page)).ply);
  const selected = await page.$(`${screen} #board .ring.selected[data-square="${move.path[0]}"]`);
  if (!selected) await tapSquare(page, move.path[0]);
  for (const landing of move.path.slice(1)) {
    const now = await data(page);
    if (now.pending === 'true' || Number(now.ply) !== before) break;
    await page.waitForSelector(`${screen} #board .ring.target[data-square="${landing}"]`);
    await tapSquare(page, landing);
  }
  await page.waitForFunction(
    ([sel, ply]) => Number(document.querySelector(sel).dataset.ply) > ply,
    [screen, before],
  );
}

// A button of the screen by its accessible name.
export function buttonNamed(page, name) {
  return page.getByRole('button', {name, exact: true});
}

// Every visible button of the screen has an accessible name.
export async function assertButtonsNamed(page) {
  const unnamed = await page.$$eval(`${screen} button`, (nodes) =>
    nodes
      .filter((b) => b.offsetParent !== null)
      .filter((b) => !(b.getAttribute('aria-label') || b.textContent || '').trim())
      .map((b) => b.outerHTML),
  );
  assert.deepEqual(unnamed, [], 'buttons without an accessible name');
}
