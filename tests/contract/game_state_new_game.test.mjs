// Contract test of a new game as every replica shows it, from outside
// (commit 8048873): nobody is connected until the clock reports it
// (RecordPresence), bots always are; seats keep the names they were given.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from './lib/cluster.mjs';
import { startTwoReplicas, bot, createGame, getGame, play } from './lib/game_client.mjs';

const cluster = new Cluster();
let A;
let B;

before(async () => {
  ({ A, B } = await startTwoReplicas(cluster));
});

after(async () => {
  A?.close();
  B?.close();
  await cluster.stop();
});

test('a new game\'s person and guest seats are not connected until their presence is reported; a bot is', async () => {
  const people = await createGame(A);
  const withBot = await createGame(A, { black: bot() });
  assert.equal(people.game.white.connected, false, 'CreateGame: white (guest) connected');
  assert.equal(people.game.black.connected, false, 'CreateGame: black (guest) connected');
  assert.equal(withBot.game.white.connected, false, 'CreateGame: white (guest) against a bot connected');
  assert.equal(withBot.game.black.connected, true, 'CreateGame: a bot seat is always connected');
  for (const client of [A, B]) {
    const game = await getGame(client, people.id);
    assert.equal(game.white.connected, false, `GetGame on ${client.name}: white connected`);
    assert.equal(game.black.connected, false, `GetGame on ${client.name}: black connected`);
    assert.equal(game.white.seat.display_name, people.request.white.display_name);
    assert.equal(game.black.seat.player_id, people.request.black.player_id);
  }

  const reported = await A.ok('RecordPresence', {
    game_id: people.id, color: 'COLOR_WHITE', connected: true, idempotency_key: `presence-${people.id}`,
  });
  assert.equal(reported.changed, true, 'the first connection is a change');
  const game = await getGame(B, people.id);
  assert.equal(game.white.connected, true);
  assert.equal(game.black.connected, false);
});

test('GetGame with include_legal_moves answers the legal moves of the state it returns, as ListLegalMoves does; without it, none', async () => {
  const game = await createGame(A);
  const check = async (client, label) => {
    const both = await client.ok('GetGame', { game_id: game.id, include_legal_moves: true });
    const listed = await client.ok('ListLegalMoves', { game_id: game.id });
    assert.equal(both.legal_moves.ply, both.game.ply, `${label}: the moves' ply`);
    assert.equal(both.legal_moves.side_to_move, both.game.side_to_move, `${label}: side to move`);
    assert.deepEqual(both.legal_moves.moves, listed.moves, `${label}: the moves`);
    assert.ok(both.legal_moves.moves.length > 0, `${label}: a game at its start has moves`);
    assert.equal(both.legal_moves.must_capture, listed.must_capture, `${label}: must_capture`);
    assert.equal(both.legal_moves.next_page_token, '', `${label}: all on one page`);
    const plain = await client.ok('GetGame', { game_id: game.id });
    assert.equal(plain.legal_moves, null, `${label}: no moves unless asked`);
    return both;
  };
  await check(A, 'start');
  const moved = await play([A], game, ['32-28', '19-23']);
  // A position where a capture is compulsory: 28x19 is the only kind of move.
  const both = await check(B, 'after 32-28 19-23');
  assert.equal(both.game.ply, moved.ply);
  assert.equal(both.legal_moves.must_capture, true, 'white must take on 23');

  await A.ok('Resign', { game_id: game.id, player_token: game.white, expected_ply: moved.ply });
  const over = await A.ok('GetGame', { game_id: game.id, include_legal_moves: true });
  assert.deepEqual(over.legal_moves.moves, [], 'a finished game has no moves');
  assert.equal(over.legal_moves.side_to_move, 'COLOR_UNSPECIFIED');
});

test('SubmitMove with include_legal_moves answers the legal moves of the state it returns, as GetGame does on either replica; without it, none; none after a move that ends the game', async () => {
  const game = await createGame(A);
  const first = await A.ok('SubmitMove', {
    game_id: game.id, player_token: game.white, move: '32-28', expected_ply: 0, include_legal_moves: true,
  });
  assert.equal(first.game.ply, 1);
  assert.equal(first.legal_moves.ply, first.game.ply, 'the moves belong to the state answered');
  assert.equal(first.legal_moves.side_to_move, 'COLOR_BLACK');
  assert.ok(first.legal_moves.moves.length > 0);
  for (const client of [A, B]) {
    const read = await client.ok('GetGame', { game_id: game.id, include_legal_moves: true });
    assert.deepEqual(first.legal_moves, read.legal_moves, `GetGame on ${client.name}`);
  }

  const plain = await B.ok('SubmitMove', {
    game_id: game.id, player_token: game.black, move: '19-23', expected_ply: 1,
  });
  assert.equal(plain.legal_moves, null, 'no moves unless asked');
  // A retry of the move answers the current state: its moves are that state's.
  const retried = await A.ok('SubmitMove', {
    game_id: game.id, player_token: game.white, move: '32-28', expected_ply: 0, include_legal_moves: true,
  });
  assert.equal(retried.game.ply, 2);
  assert.equal(retried.legal_moves.ply, 2);
  assert.equal(retried.legal_moves.must_capture, true, 'white must take on 23');
  assert.deepEqual(retried.legal_moves.moves.map((move) => move.notation), ['28x19']);

  // White takes black's last piece.
  const last = await createGame(A, { initial_fen: 'W:W28:B23' });
  const ended = await B.ok('SubmitMove', {
    game_id: last.id, player_token: last.white, move: '28x19', expected_ply: 0, include_legal_moves: true,
  });
  assert.equal(ended.game.result, 'GAME_RESULT_WHITE_WINS');
  assert.deepEqual(ended.legal_moves.moves, [], 'a finished game has no moves');
  assert.equal(ended.legal_moves.side_to_move, 'COLOR_UNSPECIFIED');
});
