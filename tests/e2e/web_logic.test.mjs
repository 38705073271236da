// Unit tests (no browser, no servers) of the web client's pure modules:
// FEN reading, square geometry, turning taps/drops into legal moves, and
// the REST calls' idempotency keys (fetch stubbed).
import assert from 'node:assert/strict';
import {test} from 'node:test';

import {createGame, newIdempotencyKey} from '../../web/dist/js/api.js';
import {parseFen} from '../../web/dist/js/fen.js';
import {newerId} from '../../web/dist/js/game_socket.js';
import {Geometry} from '../../web/dist/js/geometry.js';
import {MovePicker} from '../../web/dist/js/move_picker.js';
import {t} from '../../web/dist/js/strings.js';

const move = (notation, path, captured = []) => ({
  notation,
  fromSquare: path[0],
  toSquare: path[path.length - 1],
  path,
  captured,
});

test('parseFen reads ranges, kings and both sides', () => {
  const {turn, pieces} = parseFen('B:W18,K24,31-33:BK1-2,12');
  assert.equal(turn, 'black');
  assert.deepEqual(pieces.get(18), {color: 'white', king: false});
  assert.deepEqual(pieces.get(24), {color: 'white', king: true});
  assert.deepEqual(pieces.get(32), {color: 'white', king: false});
  assert.deepEqual(pieces.get(2), {color: 'black', king: true});
  assert.deepEqual(pieces.get(12), {color: 'black', king: false});
  assert.equal(pieces.size, 8);
});

test('parseFen accepts an empty side and a final dot, rejects garbage', () => {
  assert.equal(parseFen('W:W:B1-20.').pieces.size, 20);
  assert.throws(() => parseFen('X:W1'));
  assert.throws(() => parseFen('W:W1-x'));
  assert.throws(() => parseFen('W:W9-3'));
});

test('geometry numbers dark squares like the rules library', () => {
  const g10 = new Geometry({rows: 10, cols: 10, playable: 'dark'});
  assert.equal(g10.count, 50);
  assert.deepEqual(g10.position(1), {row: 0, col: 1});
  assert.deepEqual(g10.position(6), {row: 1, col: 0});
  assert.deepEqual(g10.position(46), {row: 9, col: 0});
  assert.deepEqual(g10.position(50), {row: 9, col: 8});
  assert.equal(g10.squareAt(0, 0), 0);
  for (let sq = 1; sq <= 50; sq++) {
    const {row, col} = g10.position(sq);
    assert.equal(g10.squareAt(row, col), sq);
  }
  const g12 = new Geometry({rows: 12, cols: 12, playable: 'dark'});
  assert.equal(g12.count, 72);
  assert.deepEqual(g12.position(72), {row: 11, col: 10});
});

test('the full board numbers all 64 squares row by row', () => {
  const g = new Geometry({rows: 8, cols: 8, playable: 'all'});
  assert.equal(g.count, 64);
  assert.deepEqual(g.position(1), {row: 0, col: 0});
  assert.deepEqual(g.position(57), {row: 7, col: 0});
  assert.equal(g.squareAt(0, 0), 1);
  assert.equal(g.squareAt(7, 7), 64);
});

test('a simple move: select, ring targets, tap a ring plays it', () => {
  const picker = new MovePicker([move('32-28', [32, 28]), move('32-27', [32, 27]), move('31-27', [31, 27])], false);
  assert.equal(picker.markers().selected, 0);
  assert.deepEqual(picker.tap(32), {kind: 'select'});
  assert.deepEqual(picker.targets().sort(), [27, 28]);
  const played = picker.tap(28);
  assert.equal(played.kind, 'play');
  assert.equal(played.move.notation, '32-28');
});

test('tapping an empty square or the same piece drops the selection', () => {
  const picker = new MovePicker([move('32-28', [32, 28]), move('32-27', [32, 27])], false);
  picker.tap(32);
  assert.equal(picker.tap(32).kind, 'deselect');
  assert.deepEqual(picker.prefix, []);
  picker.tap(32);
  assert.equal(picker.tap(5).kind, 'deselect');
  assert.equal(picker.tap(5).kind, 'none');
});

test('a lone capturing piece is picked up at once, with red rings and crosses', () => {
  const picker = new MovePicker([move('28x19', [28, 19], [23])], true);
  const m = picker.markers();
  assert.equal(m.selected, 28);
  assert.deepEqual(m.canCapture, [28]);
  assert.deepEqual(m.targets, [{square: 19, capture: true}]);
  assert.deepEqual(m.crosses, [23]);
});

test('several capturing pieces get dashed rings and nothing is picked up', () => {
  const picker = new MovePicker([move('14x23', [14, 23], [19]), move('13x24', [13, 24], [19])], true);
  const m = picker.markers();
  assert.equal(m.selected, 0);
  assert.deepEqual(m.canCapture.sort((a, b) => a - b), [13, 14]);
  assert.deepEqual(m.targets, []);
});

test('a multi-capture is built by taps and plays once the route is decided', () => {
  const moves = [
    move('28x19x10', [28, 19, 10], [23, 14]),
    move('28x19x8', [28, 19, 8], [23, 13]),
    move('28x17', [28, 17], [22]),
  ];
  const picker = new MovePicker(moves, true);
  assert.equal(picker.markers().selected, 28);
  assert.deepEqual(picker.targets().sort((a, b) => a - b), [17, 19]);
  assert.deepEqual(picker.tap(19), {kind: 'step'});
  assert.deepEqual(picker.prefix, [28, 19]);
  assert.deepEqual(picker.targets().sort((a, b) => a - b), [8, 10]);
  assert.deepEqual(picker.markers().trail, [28, 19]);
  const played = picker.tap(10);
  assert.equal(played.kind, 'play');
  assert.equal(played.move.notation, '28x19x10');
});

test('a capture with one way to go on is played out from its first landing', () => {
  const picker = new MovePicker([move('1x10x19x28', [1, 10, 19, 28], [6, 14, 23]), move('2x11', [2, 11], [7])], true);
  picker.tap(1);
  const played = picker.tap(10);
  assert.equal(played.kind, 'play');
  assert.equal(played.move.notation, '1x10x19x28');
});

test('shared steps are followed until the routes part', () => {
  const picker = new MovePicker([move('a', [1, 10, 19, 28], [6, 14, 23]), move('b', [1, 10, 19, 30], [6, 14, 24])], true);
  assert.equal(picker.tap(10).kind, 'step');
  assert.deepEqual(picker.prefix, [1, 10, 19]);
  assert.equal(picker.tap(30).move.notation, 'b');
});

test('dropping on the last landing square plays the capture', () => {
  const picker = new MovePicker([move('28x19x10', [28, 19, 10], [23, 14]), move('28x19x8', [28, 19, 8], [23, 13])], true);
  const played = picker.drop(28, 8);
  assert.equal(played.kind, 'play');
  assert.equal(played.move.notation, '28x19x8');
  assert.equal(new MovePicker([move('32-28', [32, 28])]).drop(32, 5).kind, 'illegal');
  assert.equal(new MovePicker([move('32-28', [32, 28])]).drop(31, 27).kind, 'none');
});

test('an illegal drop puts the piece back: nothing stays picked up, no rings', () => {
  const picker = new MovePicker([move('32-28', [32, 28]), move('32-27', [32, 27]), move('31-26', [31, 26])]);
  assert.equal(picker.tap(32).kind, 'select');
  assert.equal(picker.drop(32, 23).kind, 'illegal');
  const m = picker.markers();
  assert.equal(m.selected, 0);
  assert.deepEqual(m.targets, []);
  assert.deepEqual(m.trail, []);
  // Half-way through a capture too: the whole choice is dropped.
  const capture = new MovePicker([move('a', [1, 10, 19, 28], [6, 14, 23]), move('b', [1, 10, 19, 30], [6, 14, 24]), move('c', [2, 11, 20], [7, 15])], true);
  capture.tap(1);
  capture.tap(10);
  assert.equal(capture.drop(1, 40).kind, 'illegal');
  assert.deepEqual(capture.markers().trail, []);
  assert.deepEqual(capture.markers().targets, []);
  assert.deepEqual(capture.markers().canCapture.sort((a, b) => a - b), [1, 2]);
});

test('two routes to the same square ask for the landings in between', () => {
  const picker = new MovePicker([move('r1', [1, 10, 19], [6, 14]), move('r2', [1, 12, 19], [7, 16])], true);
  assert.equal(picker.drop(1, 19).kind, 'step');
  assert.equal(picker.destination, 19);
  assert.deepEqual(picker.targets().sort((a, b) => a - b), [10, 12]);
  assert.equal(picker.tap(12).move.notation, 'r2');
});

test('a malformed legal move is ignored', () => {
  const picker = new MovePicker([{notation: 'x'}, move('32-28', [32, 28])]);
  assert.deepEqual([...picker.froms], [32]);
});

test('event ids compare as number pairs', () => {
  assert.ok(newerId('10-0', '9-5'));
  assert.ok(newerId('10-2', '10-1'));
  assert.ok(!newerId('9-9', '10-0'));
  assert.ok(newerId('1-0', ''));
});

test('strings fill their placeholders', () => {
  assert.equal(t('toMove', {color: 'Red'}), 'Red to move');
  assert.equal(t('reason.RESULT_REASON_RESIGNATION'), 'by resignation');
  assert.equal(t('no.such.key'), 'no.such.key');
});

test('idempotency keys have the shape the gateway accepts and never repeat', () => {
  const keys = new Set();
  for (let i = 0; i < 100; i++) {
    const key = newIdempotencyKey();
    assert.match(key, /^[A-Za-z0-9_.:-]{1,64}$/);
    keys.add(key);
  }
  assert.equal(keys.size, 100);
});

test('a create retried after a lost answer sends the same key; the next click a new one', async (t) => {
  const creates = [];
  let failNext = true;
  t.mock.method(globalThis, 'fetch', async (path, init) => {
    const json = (status, body) => new Response(JSON.stringify(body), {status});
    if (path === '/api/session') return json(200, {playerId: 'g_x', guestName: 'Guest-1'});
    creates.push(init.headers['Idempotency-Key']);
    if (failNext) {
      failNext = false;
      return json(503, {error: {code: 'UNAVAILABLE', message: 'draining'}});
    }
    return json(200, {gameId: 'g1', seats: {white: 'w', black: 'b'}});
  });
  const created = await createGame('english', 'hotseat');
  assert.equal(created.gameId, 'g1');
  assert.equal(creates.length, 2);
  assert.ok(creates[0]);
  assert.equal(creates[1], creates[0]);
  await createGame('english', 'hotseat');
  assert.equal(creates.length, 3);
  assert.notEqual(creates[2], creates[0]);
});
