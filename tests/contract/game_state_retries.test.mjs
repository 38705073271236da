// Contract test of retried calls, from outside: a state-changing GameService
// call repeated as common.proto's "Retrying safely" says (same expected_ply,
// token and arguments, or same idempotency_key) on the OTHER replica is
// answered with the first outcome and changes nothing more; the same key
// with a different request is INVALID_ARGUMENT; a "retry" after the game
// moved on is not one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from './lib/cluster.mjs';
import { startTwoReplicas, bot, createGame, gameRequest, getGame, play } from './lib/game_client.mjs';
import { expectCode, expectOk } from './lib/documented_codes.mjs';

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

// The game's version and last event: a retry must leave both as they were.
async function footprint(id) {
  const game = await getGame(A, id);
  return { version: game.version, last_event_id: game.last_event_id };
}

test('CreateGame retried on the other replica: the same game and tokens; the key with another request is refused', async () => {
  const request = gameRequest();
  const first = expectOk('CreateGame', await A.call('CreateGame', request));
  const retry = expectOk('CreateGame', await B.call('CreateGame', request));
  assert.equal(retry.game_id, first.game_id);
  assert.equal(retry.white_player_token, first.white_player_token);
  assert.equal(retry.black_player_token, first.black_player_token);
  assert.equal(retry.game.version, first.game.version);
  assert.equal(retry.game.last_event_id, first.game.last_event_id);

  const different = await B.call('CreateGame', { ...request, white: { ...request.white, display_name: 'Someone else' } });
  expectCode('CreateGame', different, 'INVALID_ARGUMENT', /idempotency_key/);
  const game = await getGame(A, first.game_id);
  assert.equal(game.white.seat.display_name, request.white.display_name);
  assert.equal(game.version, first.game.version);

  // Still a retry after the game moved on: same id and tokens.
  const moved = await play([A], { id: first.game_id, white: first.white_player_token, black: first.black_player_token }, ['32-28']);
  const late = expectOk('CreateGame', await B.call('CreateGame', request));
  assert.equal(late.game_id, first.game_id);
  assert.equal(late.white_player_token, first.white_player_token);
  assert.equal(late.black_player_token, first.black_player_token);
  assert.equal((await getGame(A, first.game_id)).version, moved.version);
});

test('SubmitMove retried on the other replica: OK with the move as played, nothing applied twice', async () => {
  const game = await createGame(A);
  const request = { game_id: game.id, player_token: game.white, move: '32-28', expected_ply: 0 };
  const first = expectOk('SubmitMove', await A.call('SubmitMove', request));
  const after = await footprint(game.id);
  const retry = expectOk('SubmitMove', await B.call('SubmitMove', request));
  assert.deepEqual(retry.move, first.move);
  assert.equal(retry.game.ply, 1);
  assert.equal(retry.game.version, first.game.version);
  assert.deepEqual(await footprint(game.id), after);

  // Another move at the same ply is no retry: the ply is stale.
  expectCode('SubmitMove', await B.call('SubmitMove', { ...request, move: '31-27' }), 'ABORTED');
  // Still recognised after the opponent replied: OK, the move as played,
  // the current state.
  const replied = await play([A], game, ['17-21']);
  const late = expectOk('SubmitMove', await B.call('SubmitMove', request));
  assert.deepEqual(late.move, first.move);
  assert.equal(late.game.ply, 2);
  assert.equal(late.game.version, replied.version);
  assert.deepEqual(late.game.moves, ['32-28', '17-21']);
});

test('Resign retried on the other replica: OK, the same result', async () => {
  const game = await createGame(A);
  const request = { game_id: game.id, player_token: game.black, expected_ply: 0 };
  const first = expectOk('Resign', await A.call('Resign', request));
  assert.equal(first.game.result, 'GAME_RESULT_WHITE_WINS');
  const after = await footprint(game.id);
  const retry = expectOk('Resign', await B.call('Resign', request));
  assert.equal(retry.game.result, 'GAME_RESULT_WHITE_WINS');
  assert.equal(retry.game.reason, 'RESULT_REASON_RESIGNATION');
  assert.equal(retry.game.version, first.game.version);
  assert.deepEqual(await footprint(game.id), after);
  // The winner resigning is no retry: the game is over.
  expectCode('Resign', await B.call('Resign', { ...request, player_token: game.white }), 'FAILED_PRECONDITION');
});

test('OfferDraw retried on the other replica while pending: OK, one offer', async () => {
  const game = await createGame(A);
  const request = { game_id: game.id, player_token: game.white, expected_ply: 0 };
  const first = expectOk('OfferDraw', await A.call('OfferDraw', request));
  assert.equal(first.game.draw_offered_by, 'COLOR_WHITE');
  const after = await footprint(game.id);
  const retry = expectOk('OfferDraw', await B.call('OfferDraw', request));
  assert.equal(retry.game.draw_offered_by, 'COLOR_WHITE');
  assert.equal(retry.declined, false);
  assert.equal(retry.game.version, first.game.version);
  assert.deepEqual(await footprint(game.id), after);
});

test('RespondDraw retried on the other replica: accepting and declining answer OK again', async () => {
  for (const accept of [true, false]) {
    const game = await createGame(A);
    await A.ok('OfferDraw', { game_id: game.id, player_token: game.white, expected_ply: 0 });
    const request = { game_id: game.id, player_token: game.black, expected_ply: 0, accept };
    const first = expectOk('RespondDraw', await A.call('RespondDraw', request));
    assert.equal(first.game.result, accept ? 'GAME_RESULT_DRAW' : 'GAME_RESULT_ONGOING');
    assert.equal(first.game.draw_offered_by, 'COLOR_UNSPECIFIED');
    const after = await footprint(game.id);
    const retry = expectOk('RespondDraw', await B.call('RespondDraw', request));
    assert.equal(retry.game.result, first.game.result, `accept=${accept}`);
    assert.equal(retry.game.reason, first.game.reason, `accept=${accept}`);
    assert.equal(retry.game.version, first.game.version, `accept=${accept}`);
    assert.deepEqual(await footprint(game.id), after, `accept=${accept}`);
  }
});

test('DeclareAbandoned retried on the other replica: OK, the same end', async () => {
  const game = await createGame(A);
  const request = { game_id: game.id, color: 'COLOR_BLACK', expected_ply: 0 };
  const first = expectOk('DeclareAbandoned', await A.call('DeclareAbandoned', request));
  assert.equal(first.game.result, 'GAME_RESULT_WHITE_WINS');
  assert.equal(first.game.reason, 'RESULT_REASON_ABANDONED');
  const after = await footprint(game.id);
  const retry = expectOk('DeclareAbandoned', await B.call('DeclareAbandoned', request));
  assert.equal(retry.game.reason, 'RESULT_REASON_ABANDONED');
  assert.equal(retry.game.version, first.game.version);
  assert.deepEqual(await footprint(game.id), after);
});

test('UndoMove retried on the other replica (8048873): OK with the same state and undone_moves; ABORTED once the game went on', async () => {
  // The bot has not replied (no bot worker runs here): only the player's move is taken back.
  const game = await createGame(A, { black: bot() });
  await play([A], game, ['32-28']);
  const request = { game_id: game.id, player_token: game.white, expected_ply: 1 };
  const first = expectOk('UndoMove', await A.call('UndoMove', request));
  assert.deepEqual(first.undone_moves, ['32-28']);
  assert.equal(first.game.ply, 0);
  const after = await footprint(game.id);
  const retry = await B.call('UndoMove', request);
  expectOk('UndoMove', retry);
  assert.deepEqual(retry.response.undone_moves, ['32-28']);
  assert.equal(retry.response.game.ply, 0);
  assert.equal(retry.response.game.version, first.game.version);
  assert.deepEqual(await footprint(game.id), after);

  // The player moves again and the bot replies (with its seat's token):
  // the old undo is no longer a retry.
  await play([A], game, ['31-27', '17-21']);
  expectCode('UndoMove', await B.call('UndoMove', request), 'ABORTED');
});

test('UndoMove of a move and the bot\'s reply, retried on the other replica (8048873): OK, both moves listed again', async () => {
  const game = await createGame(A, { black: bot() });
  await play([A], game, ['32-28', '17-21']);
  const request = { game_id: game.id, player_token: game.white, expected_ply: 2 };
  const first = expectOk('UndoMove', await A.call('UndoMove', request));
  assert.deepEqual(first.undone_moves, ['17-21', '32-28']);
  assert.equal(first.game.ply, 0);
  const after = await footprint(game.id);
  const retry = await B.call('UndoMove', request);
  expectOk('UndoMove', retry);
  assert.deepEqual(retry.response.undone_moves, ['17-21', '32-28']);
  assert.equal(retry.response.game.version, first.game.version);
  assert.deepEqual(await footprint(game.id), after);
});

test('PlayAutomaticMove retried on the other replica: OK, played = false, nothing more played', async () => {
  const game = await createGame(A);
  const request = { game_id: game.id, expected_ply: 0, color: 'COLOR_WHITE' };
  const first = expectOk('PlayAutomaticMove', await A.call('PlayAutomaticMove', request));
  assert.equal(first.played, true);
  assert.equal(first.move.automatic, true);
  assert.equal(first.game.ply, 1);
  const after = await footprint(game.id);
  const retry = expectOk('PlayAutomaticMove', await B.call('PlayAutomaticMove', request));
  assert.equal(retry.played, false);
  assert.equal(retry.game.ply, 1);
  assert.deepEqual(await footprint(game.id), after);
});

// The opposite of what the white seat shows, so reporting it is a change.
async function presenceChange(game, key) {
  const connected = !(await getGame(A, game.id)).white.connected;
  return { game_id: game.id, color: 'COLOR_WHITE', connected, idempotency_key: key };
}

test('RecordPresence retried on the other replica: the first answer, nothing recorded twice', async () => {
  const game = await createGame(A);
  const request = await presenceChange(game, `presence-${game.id}-1`);
  const first = expectOk('RecordPresence', await A.call('RecordPresence', request));
  assert.equal(first.changed, true);
  const after = await footprint(game.id);
  const retry = expectOk('RecordPresence', await B.call('RecordPresence', request));
  assert.equal(retry.changed, true, 'a repeat returns the first call\'s response (common.proto)');
  assert.deepEqual(await footprint(game.id), after);
});

test('RecordPresence: the same idempotency_key with a different request is INVALID_ARGUMENT (common.proto, "Retrying safely")', async () => {
  const game = await createGame(A);
  const request = await presenceChange(game, `presence-${game.id}-1`);
  expectOk('RecordPresence', await A.call('RecordPresence', request));
  const after = await footprint(game.id);
  expectCode('RecordPresence', await B.call('RecordPresence', { ...request, connected: !request.connected }), 'INVALID_ARGUMENT',
    /idempotency_key/);
  assert.deepEqual(await footprint(game.id), after);
});

test('two replicas racing on one ply: one move wins, the other gets ABORTED, the game holds the winner only', async () => {
  for (let round = 0; round < 8; round += 1) {
    const game = await createGame(A);
    const [onA, onB] = await Promise.all([
      A.call('SubmitMove', { game_id: game.id, player_token: game.white, move: '32-28', expected_ply: 0 }),
      B.call('SubmitMove', { game_id: game.id, player_token: game.white, move: '31-27', expected_ply: 0 }),
    ]);
    const winners = [onA, onB].filter((answer) => !answer.error);
    assert.equal(winners.length, 1, `round ${round}: exactly one of two different moves at one ply is played`);
    const loser = onA.error ? onA : onB;
    expectCode('SubmitMove', loser, 'ABORTED');
    const state = await getGame(B, game.id);
    assert.deepEqual(state.moves, [winners[0].response.move.notation], `round ${round}`);
    assert.equal(state.ply, 1);
  }
});
