// Contract test of game_state's error codes, from outside: every code that
// docs/API.md and game.proto document for every GameService call is
// provoked against the real binary (two replicas on one private Redis, and
// one replica whose Redis is down for UNAVAILABLE), including the check
// order of the acting calls. Each refused request is sent to both replicas
// (one request always gets the same code) and must leave the game as it was.
// The list of cases is compared with the docs' table, so neither can drift.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Cluster } from './lib/cluster.mjs';
import {
  GameClient, bot, createGame, getGame, laterEventId, newKey, person, play,
} from './lib/game_client.mjs';
import {
  apiMdPath, codesFromApiTable, codesFromGameProto, expectCode, gameProtoPath,
} from './lib/documented_codes.mjs';

const cluster = new Cluster();
let A;  // replica "a"
let B;  // replica "b", same Redis
let D;  // a replica whose Redis is down

before(async () => {
  await cluster.startRedis();
  const [a, b, d] = await Promise.all([
    cluster.startReplica('a'),
    cluster.startReplica('b'),
    cluster.deadRedisAddress().then((dead) => cluster.startReplica('dead-redis', dead)),
  ]);
  A = new GameClient('a', a.address);
  B = new GameClient('b', b.address);
  D = new GameClient('dead-redis', d.address);
});

after(async () => {
  for (const client of [A, B, D]) client?.close();
  await cluster.stop();
});

// --- Games the cases start from (created on replica a) ----------------------

const fresh = () => createGame(A);
const english = (fen) => createGame(A, { variant: 'english', initial_fen: fen });
const againstBot = () => createGame(A, { black: bot() });

async function resigned() {
  const game = await fresh();
  await A.ok('Resign', { game_id: game.id, player_token: game.white, expected_ply: 0 });
  return game;
}

async function drawOffered() {
  const game = await fresh();
  await A.ok('OfferDraw', { game_id: game.id, player_token: game.white, expected_ply: 0 });
  return game;
}

async function drawRefused() {
  const game = await drawOffered();
  await A.ok('RespondDraw', { game_id: game.id, player_token: game.black, expected_ply: 0, accept: false });
  return game;
}

// White played 32-28 against the bot (which has not replied: no bot worker).
async function movedAgainstBot() {
  const game = await againstBot();
  await play([A], game, ['32-28']);
  return game;
}

// A FEN refused because the game would be over: the message says so.
const OVER_BEFORE_START = /initial_fen.*(over|no piece|no legal)/;
const UNKNOWN = 'nosuchgame00000000000000';
const LONG_MOVE = `32-28${'-28'.repeat(66)}`;  // 203 bytes

// --- The cases ----------------------------------------------------------------
// { call, code, why, run(client, game), setup?, message?, replicas?, changes? }
//   setup    makes the game the request is about (on replica a);
//   run      sends the request to `client` and returns its answer;
//   message  what an INVALID_ARGUMENT message must name;
//   replicas 'dead': sent only to the replica whose Redis is down;
//   changes  the case moves the game itself: a new game per replica and no
//            "left the game as it was" check.

const cases = [];
const add = (call, code, why, run, extra = {}) => cases.push({ call, code, why, run, ...extra });

// CreateGame: every malformed request of its comment.
{
  // A fresh key per call: a request wrongly accepted on one replica is not
  // answered as a retry on the other.
  const create = (changes) => (client) => client.call('CreateGame', {
    idempotency_key: newKey(),
    variant: 'international',
    white: { kind: 'SEAT_KIND_GUEST', player_id: 'g_white', display_name: 'Wendy' },
    black: { kind: 'SEAT_KIND_GUEST', player_id: 'g_black', display_name: 'Boris' },
    ...changes,
  });
  const IA = 'INVALID_ARGUMENT';
  add('CreateGame', IA, 'missing idempotency_key', create({ idempotency_key: '' }), { message: /idempotency_key/ });
  add('CreateGame', IA, 'unknown variant', create({ variant: 'chess' }), { message: /variant/ });
  add('CreateGame', IA, 'an option the variant does not support', create({ options: { mandatory_capture: false } }),
    { message: /mandatory_capture/ });
  add('CreateGame', IA, 'a seat without kind', create({ white: { player_id: 'g_x', display_name: 'X' } }),
    { message: /white\.kind|kind/ });
  add('CreateGame', IA, 'a PERSON seat without player_id', create({ white: { kind: 'SEAT_KIND_PERSON', display_name: 'X' } }),
    { message: /player_id/ });
  add('CreateGame', IA, 'a GUEST seat without player_id', create({ black: { kind: 'SEAT_KIND_GUEST', display_name: 'X' } }),
    { message: /player_id/ });
  add('CreateGame', IA, 'a BOT seat without level or engine', create({ black: { kind: 'SEAT_KIND_BOT', display_name: 'C' } }),
    { message: /bot_level|engine/ });
  add('CreateGame', IA, 'rated with a GUEST seat', create({ rated: true, white: person('w') }), { message: /rated/ });
  add('CreateGame', IA, 'rated with a BOT seat', create({ rated: true, white: person('w'), black: bot() }), { message: /rated/ });
  add('CreateGame', IA, 'rated with one player in both seats (8048873)',
    create({ rated: true, white: person('same', 'Sam'), black: person('same', 'Sam') }), { message: /rated|same|both/ });
  add('CreateGame', IA, 'a custom initial_fen in a rated game',
    create({ rated: true, white: person('w'), black: person('b'), initial_fen: 'W:W31-50:B1-20' }), { message: /initial_fen/ });
  add('CreateGame', IA, 'a bad FEN', create({ initial_fen: 'X:W1:B2' }), { message: /initial_fen/ });
  add('CreateGame', IA, 'a FEN off the board', create({ initial_fen: 'W:W51:B1' }), { message: /initial_fen/ });
  add('CreateGame', IA, 'initial_fen: the side to move has no piece', create({ initial_fen: 'W:W:B1' }), { message: OVER_BEFORE_START });
  add('CreateGame', IA, 'initial_fen: the side not to move has no piece (8048873)', create({ initial_fen: 'W:W31:B' }),
    { message: OVER_BEFORE_START });
  add('CreateGame', IA, 'initial_fen: the side to move has no legal move',
    create({ variant: 'english', initial_fen: 'B:W9,14:B5' }), { message: OVER_BEFORE_START });
  add('CreateGame', IA, 'an empty display_name (8048873)',
    create({ white: { kind: 'SEAT_KIND_GUEST', player_id: 'g_white', display_name: '' } }), { message: /display_name/ });
  add('CreateGame', IA, 'a display_name longer than 40 characters',
    create({ black: { kind: 'SEAT_KIND_GUEST', player_id: 'g_black', display_name: 'x'.repeat(41) } }), { message: /display_name/ });
  add('CreateGame', IA, 'a negative time_per_move', create({ time_per_move: { seconds: -5 } }), { message: /time_per_move/ });
  add('CreateGame', IA, 'a time_per_move longer than 1 hour', create({ time_per_move: { seconds: 3601 } }),
    { message: /time_per_move/ });
  add('CreateGame', IA, 'the key of another game with a different request', async (client, game) => {
    const answer = await client.call('CreateGame', { ...game.request, variant: 'frisian' });
    // The key still names the first game, unchanged.
    const again = await getGame(client, game.id);
    assert.equal(again.variant, 'international');
    return answer;
  }, { setup: fresh, message: /idempotency_key/ });
}

// Calls on one game: the same malformed-request checks for each.
const actingCalls = {
  SubmitMove: (game, changes = {}) => ({ game_id: game.id, player_token: game.white, move: '32-28', expected_ply: 0, ...changes }),
  Resign: (game, changes = {}) => ({ game_id: game.id, player_token: game.white, expected_ply: 0, ...changes }),
  OfferDraw: (game, changes = {}) => ({ game_id: game.id, player_token: game.white, expected_ply: 0, ...changes }),
  RespondDraw: (game, changes = {}) => ({ game_id: game.id, player_token: game.black, expected_ply: 0, accept: true, ...changes }),
  UndoMove: (game, changes = {}) => ({ game_id: game.id, player_token: game.white, expected_ply: 1, ...changes }),
};
// A game in which each call would succeed, so only the spoilt field fails.
const readyFor = { SubmitMove: fresh, Resign: fresh, OfferDraw: fresh, RespondDraw: drawOffered, UndoMove: movedAgainstBot };

for (const [call, request] of Object.entries(actingCalls)) {
  const send = (changes) => (client, game) => client.call(call, request(game, changes));
  const setup = readyFor[call];
  add(call, 'INVALID_ARGUMENT', 'empty game_id', send({ game_id: '' }), { setup, message: /game_id/ });
  add(call, 'INVALID_ARGUMENT', 'a game_id that cannot be one', send({ game_id: 'a{b}' }), { setup, message: /game_id/ });
  add(call, 'INVALID_ARGUMENT', 'no player_token (a spectator)', send({ player_token: '' }), { setup, message: /player_token/ });
  add(call, 'INVALID_ARGUMENT', 'negative expected_ply', send({ expected_ply: -1 }), { setup, message: /expected_ply/ });
  add(call, 'NOT_FOUND', 'unknown game_id', send({ game_id: UNKNOWN }), { setup });
  add(call, 'PERMISSION_DENIED', 'a token that is no seat\'s', send({ player_token: 'not-a-token-of-this-game' }), { setup });
  add(call, 'UNAVAILABLE', 'Redis down', (client) => client.call(call, request({ id: UNKNOWN, white: 't', black: 't' })),
    { replicas: 'dead' });
}

// SubmitMove
add('SubmitMove', 'INVALID_ARGUMENT', 'text that is not notation',
  (client, game) => client.call('SubmitMove', actingCalls.SubmitMove(game, { move: 'hello' })), { setup: fresh, message: /move|notation/ });
add('SubmitMove', 'INVALID_ARGUMENT', 'a move longer than 200 bytes',
  (client, game) => client.call('SubmitMove', actingCalls.SubmitMove(game, { move: LONG_MOVE })), { setup: fresh, message: /200/ });
add('SubmitMove', 'INVALID_ARGUMENT', 'an empty move',
  (client, game) => client.call('SubmitMove', actingCalls.SubmitMove(game, { move: '' })), { setup: fresh, message: /move/ });
add('SubmitMove', 'INVALID_ARGUMENT', 'an illegal move: a capture is compulsory',
  (client, game) => client.call('SubmitMove', { game_id: game.id, player_token: game.black, move: '8-12', expected_ply: 0 }),
  { setup: () => english('B:W10,30:B6,8'), message: /compulsory/ });
add('SubmitMove', 'INVALID_ARGUMENT', 'an illegal move onto an own piece',
  (client, game) => client.call('SubmitMove', actingCalls.SubmitMove(game, { move: '46-41' })), { setup: fresh, message: /46-41/ });
add('SubmitMove', 'INVALID_ARGUMENT', 'an ambiguous short form (the message lists the candidates)',
  (client, game) => client.call('SubmitMove', { game_id: game.id, player_token: game.black, move: '6x22', expected_ply: 0 }),
  { setup: () => english('B:W9,10,17,18:B6'), message: /6x13x22[\s\S]*6x15x22|6x15x22[\s\S]*6x13x22/ });
add('SubmitMove', 'FAILED_PRECONDITION', 'the game is over',
  (client, game) => client.call('SubmitMove', actingCalls.SubmitMove(game, { player_token: game.black, move: '17-21' })),
  { setup: resigned, message: /over/ });
add('SubmitMove', 'FAILED_PRECONDITION', 'not this seat\'s turn',
  (client, game) => client.call('SubmitMove', actingCalls.SubmitMove(game, { player_token: game.black, move: '17-21' })),
  { setup: fresh, message: /turn/ });
add('SubmitMove', 'ABORTED', 'a stale expected_ply',
  (client, game) => client.call('SubmitMove', actingCalls.SubmitMove(game, { expected_ply: 3 })), { setup: fresh });

// Resign
add('Resign', 'FAILED_PRECONDITION', 'the game is already over',
  (client, game) => client.call('Resign', actingCalls.Resign(game, { player_token: game.black })), { setup: resigned });
add('Resign', 'ABORTED', 'a stale expected_ply',
  (client, game) => client.call('Resign', actingCalls.Resign(game, { expected_ply: 2 })), { setup: fresh });

// OfferDraw
add('OfferDraw', 'FAILED_PRECONDITION', 'the game is over',
  (client, game) => client.call('OfferDraw', actingCalls.OfferDraw(game, { player_token: game.black })), { setup: resigned });
add('OfferDraw', 'FAILED_PRECONDITION', 'the opponent\'s offer is pending',
  (client, game) => client.call('OfferDraw', actingCalls.OfferDraw(game, { player_token: game.black })),
  { setup: drawOffered, message: /RespondDraw|pending/ });
add('OfferDraw', 'FAILED_PRECONDITION', 'this player\'s offer was refused at this ply',
  (client, game) => client.call('OfferDraw', actingCalls.OfferDraw(game)), { setup: drawRefused, message: /refused/ });
add('OfferDraw', 'ABORTED', 'a stale expected_ply',
  (client, game) => client.call('OfferDraw', actingCalls.OfferDraw(game, { expected_ply: 1 })), { setup: fresh });

// RespondDraw
add('RespondDraw', 'FAILED_PRECONDITION', 'the game is over',
  (client, game) => client.call('RespondDraw', actingCalls.RespondDraw(game)), { setup: resigned });
add('RespondDraw', 'FAILED_PRECONDITION', 'no offer from the opponent is pending',
  (client, game) => client.call('RespondDraw', actingCalls.RespondDraw(game)), { setup: fresh, message: /offer/ });
add('RespondDraw', 'FAILED_PRECONDITION', 'the pending offer is the caller\'s own',
  (client, game) => client.call('RespondDraw', actingCalls.RespondDraw(game, { player_token: game.white })),
  { setup: drawOffered, message: /offer/ });
add('RespondDraw', 'ABORTED', 'a stale expected_ply',
  (client, game) => client.call('RespondDraw', actingCalls.RespondDraw(game, { expected_ply: 4 })), { setup: drawOffered });

// UndoMove
add('UndoMove', 'PERMISSION_DENIED', 'the bot seat\'s token',
  (client, game) => client.call('UndoMove', actingCalls.UndoMove(game, { player_token: game.black })), { setup: movedAgainstBot });
add('UndoMove', 'FAILED_PRECONDITION', 'the game is over', (client, game) => client.call('UndoMove', actingCalls.UndoMove(game)), {
  setup: async () => {
    const game = await movedAgainstBot();
    await A.ok('Resign', { game_id: game.id, player_token: game.white, expected_ply: 1 });
    return game;
  },
});
add('UndoMove', 'FAILED_PRECONDITION', 'a rated game', (client, game) => client.call('UndoMove', actingCalls.UndoMove(game)), {
  setup: async () => {
    const game = await createGame(A, { rated: true, white: person('rw'), black: person('rb') });
    await play([A], game, ['32-28']);
    return game;
  },
  message: /rated/,
});
add('UndoMove', 'FAILED_PRECONDITION', 'not against a bot', (client, game) => client.call('UndoMove', actingCalls.UndoMove(game)), {
  setup: async () => {
    const game = await fresh();
    await play([A], game, ['32-28']);
    return game;
  },
  message: /bot/,
});
add('UndoMove', 'FAILED_PRECONDITION', 'no move to take back',
  (client, game) => client.call('UndoMove', actingCalls.UndoMove(game, { expected_ply: 0 })), { setup: againstBot });
add('UndoMove', 'ABORTED', 'a stale expected_ply',
  (client, game) => client.call('UndoMove', actingCalls.UndoMove(game, { expected_ply: 0 })), { setup: movedAgainstBot });

// The acting calls' check order (game.proto, steps 1-7): a request that
// breaks two checks gets the earlier one's code.
for (const [call, request] of Object.entries(actingCalls)) {
  add(call, 'INVALID_ARGUMENT', 'order: malformed (1) before unknown game (2)',
    (client) => client.call(call, request({ id: UNKNOWN }, { player_token: '' })), { message: /player_token/ });
  add(call, 'NOT_FOUND', 'order: unknown game (2) before a wrong token (3)',
    (client) => client.call(call, request({ id: UNKNOWN }, { player_token: 'not-a-token' })));
  add(call, 'PERMISSION_DENIED', 'order: a wrong token (3) before game over (4)',
    (client, game) => client.call(call, request(game, { player_token: 'not-a-token', expected_ply: 7 })),
    { setup: call === 'UndoMove' ? async () => {
      const game = await movedAgainstBot();
      await A.ok('Resign', { game_id: game.id, player_token: game.white, expected_ply: 1 });
      return game;
    } : resigned });
}
add('SubmitMove', 'INVALID_ARGUMENT', 'order: text that is not notation (1) before unknown game (2)',
  (client) => client.call('SubmitMove', actingCalls.SubmitMove({ id: UNKNOWN, white: 'not-a-token' }, { move: 'e2-e4' })),
  { message: /notation|e2-e4/ });
add('SubmitMove', 'FAILED_PRECONDITION', 'order: game over (4) before a stale ply (5)',
  (client, game) => client.call('SubmitMove', actingCalls.SubmitMove(game, { player_token: game.black, move: '17-21', expected_ply: 5 })),
  { setup: resigned, message: /over/ });
add('Resign', 'FAILED_PRECONDITION', 'order: game over (4) before a stale ply (5)',
  (client, game) => client.call('Resign', actingCalls.Resign(game, { player_token: game.black, expected_ply: 5 })),
  { setup: resigned, message: /over/ });
add('OfferDraw', 'FAILED_PRECONDITION', 'order: game over (4) before a stale ply (5)',
  (client, game) => client.call('OfferDraw', actingCalls.OfferDraw(game, { expected_ply: 5 })), { setup: resigned, message: /over/ });
add('RespondDraw', 'FAILED_PRECONDITION', 'order: game over (4) before a stale ply (5)',
  (client, game) => client.call('RespondDraw', actingCalls.RespondDraw(game, { expected_ply: 5 })), { setup: resigned, message: /over/ });
add('SubmitMove', 'ABORTED', 'order: a stale ply (5) before not your turn (6)',
  (client, game) => client.call('SubmitMove', actingCalls.SubmitMove(game, { player_token: game.black, move: '17-21', expected_ply: 5 })),
  { setup: fresh });
add('OfferDraw', 'ABORTED', 'order: a stale ply (5) before the opponent\'s pending offer (6)',
  (client, game) => client.call('OfferDraw', actingCalls.OfferDraw(game, { player_token: game.black, expected_ply: 5 })),
  { setup: drawOffered });
add('RespondDraw', 'ABORTED', 'order: a stale ply (5) before no pending offer (6)',
  (client, game) => client.call('RespondDraw', actingCalls.RespondDraw(game, { expected_ply: 5 })), { setup: fresh });
add('UndoMove', 'ABORTED', 'order: a stale ply (5) before not against a bot (6)',
  (client, game) => client.call('UndoMove', actingCalls.UndoMove(game, { expected_ply: 5 })), { setup: fresh });
add('SubmitMove', 'FAILED_PRECONDITION', 'order: not your turn (6) before an illegal move (7)',
  (client, game) => client.call('SubmitMove', actingCalls.SubmitMove(game, { player_token: game.black, move: '46-41' })),
  { setup: fresh, message: /turn/ });

// GetGame
add('GetGame', 'INVALID_ARGUMENT', 'empty game_id', (client) => client.call('GetGame', { game_id: '' }), { message: /game_id/ });
add('GetGame', 'INVALID_ARGUMENT', 'a game_id longer than 64 characters',
  (client) => client.call('GetGame', { game_id: 'a'.repeat(65) }), { message: /game_id/ });
add('GetGame', 'INVALID_ARGUMENT', 'a negative min_version',
  (client) => client.call('GetGame', { game_id: UNKNOWN, min_version: -1 }), { message: /min_version/ });
add('GetGame', 'NOT_FOUND', 'unknown game_id', (client) => client.call('GetGame', { game_id: UNKNOWN }));
add('GetGame', 'UNAVAILABLE', 'Redis down', (client) => client.call('GetGame', { game_id: UNKNOWN }), { replicas: 'dead' });

// ListGames
add('ListGames', 'INVALID_ARGUMENT', 'negative page_size', (client) => client.call('ListGames', { page_size: -1 }),
  { message: /page_size/ });
add('ListGames', 'INVALID_ARGUMENT', 'a bad page_token', (client) => client.call('ListGames', { page_token: 'garbage!' }),
  { message: /page_token|token/ });
add('ListGames', 'INVALID_ARGUMENT', 'a page_token reused with other filters', async (client) => {
  await Promise.all([fresh(), fresh()]);
  const first = await client.ok('ListGames', { page_size: 1 });
  assert.ok(first.next_page_token, 'two live games, one per page: a next page token is expected');
  return client.call('ListGames', { page_size: 1, page_token: first.next_page_token, variant: 'english' });
}, { message: /page_token|token/ });
add('ListGames', 'INVALID_ARGUMENT', 'unknown variant', (client) => client.call('ListGames', { variant: 'chess' }),
  { message: /variant|chess/ });
add('ListGames', 'UNAVAILABLE', 'Redis down', (client) => client.call('ListGames', {}), { replicas: 'dead' });

// ListLegalMoves
add('ListLegalMoves', 'INVALID_ARGUMENT', 'empty game_id', (client) => client.call('ListLegalMoves', { game_id: '' }),
  { message: /game_id/ });
add('ListLegalMoves', 'INVALID_ARGUMENT', 'negative page_size',
  (client, game) => client.call('ListLegalMoves', { game_id: game.id, page_size: -2 }), { setup: fresh, message: /page_size/ });
add('ListLegalMoves', 'INVALID_ARGUMENT', 'a bad page_token',
  (client, game) => client.call('ListLegalMoves', { game_id: game.id, page_token: 'garbage!' }), { setup: fresh, message: /token/ });
add('ListLegalMoves', 'NOT_FOUND', 'unknown game_id', (client) => client.call('ListLegalMoves', { game_id: UNKNOWN }));
add('ListLegalMoves', 'ABORTED', 'a page_token issued at another ply', async (client, game) => {
  const page = await client.ok('ListLegalMoves', { game_id: game.id, page_size: 2 });
  assert.ok(page.next_page_token, 'nine opening moves, two per page: a next page token is expected');
  await play([A], game, ['32-28']);
  return client.call('ListLegalMoves', { game_id: game.id, page_size: 2, page_token: page.next_page_token });
}, { setup: fresh, changes: true });
add('ListLegalMoves', 'UNAVAILABLE', 'Redis down', (client) => client.call('ListLegalMoves', { game_id: UNKNOWN }), { replicas: 'dead' });

// PlayAutomaticMove
add('PlayAutomaticMove', 'INVALID_ARGUMENT', 'empty game_id',
  (client) => client.call('PlayAutomaticMove', { game_id: '', expected_ply: 0, color: 'COLOR_WHITE' }), { message: /game_id/ });
add('PlayAutomaticMove', 'INVALID_ARGUMENT', 'negative expected_ply',
  (client, game) => client.call('PlayAutomaticMove', { game_id: game.id, expected_ply: -1, color: 'COLOR_WHITE' }),
  { setup: fresh, message: /expected_ply/ });
add('PlayAutomaticMove', 'INVALID_ARGUMENT', 'unspecified color',
  (client, game) => client.call('PlayAutomaticMove', { game_id: game.id, expected_ply: 0 }), { setup: fresh, message: /color/ });
add('PlayAutomaticMove', 'NOT_FOUND', 'unknown game_id',
  (client) => client.call('PlayAutomaticMove', { game_id: UNKNOWN, expected_ply: 0, color: 'COLOR_WHITE' }));
add('PlayAutomaticMove', 'FAILED_PRECONDITION', 'the game is over at expected_ply',
  (client, game) => client.call('PlayAutomaticMove', { game_id: game.id, expected_ply: 0, color: 'COLOR_WHITE' }),
  { setup: resigned, message: /over/ });
add('PlayAutomaticMove', 'FAILED_PRECONDITION', 'not `color` to move at expected_ply',
  (client, game) => client.call('PlayAutomaticMove', { game_id: game.id, expected_ply: 0, color: 'COLOR_BLACK' }),
  { setup: fresh, message: /to move/ });
add('PlayAutomaticMove', 'UNAVAILABLE', 'Redis down',
  (client) => client.call('PlayAutomaticMove', { game_id: UNKNOWN, expected_ply: 0, color: 'COLOR_WHITE' }), { replicas: 'dead' });

// WatchGame
add('WatchGame', 'INVALID_ARGUMENT', 'empty game_id', (client) => client.watchAnswer({ game_id: '' }), { message: /game_id/ });
add('WatchGame', 'INVALID_ARGUMENT', 'a malformed from_event_id',
  (client, game) => client.watchAnswer({ game_id: game.id, from_event_id: 'yesterday' }), { setup: fresh, message: /from_event_id/ });
add('WatchGame', 'NOT_FOUND', 'unknown game_id', (client) => client.watchAnswer({ game_id: UNKNOWN }));
add('WatchGame', 'FAILED_PRECONDITION', 'from_event_id past the game\'s last event, at once (8048873)',
  (client, game) => client.watchAnswer({ game_id: game.id, from_event_id: laterEventId(game.game.last_event_id, 3600000) }),
  { setup: fresh });
add('WatchGame', 'FAILED_PRECONDITION', 'from_event_id of a later game, at once (8048873)', async (client, game) => {
  await new Promise((resolve) => setTimeout(resolve, 5));  // event ids are Redis milliseconds
  const later = await fresh();
  return client.watchAnswer({ game_id: game.id, from_event_id: later.game.last_event_id });
}, { setup: fresh });
add('WatchGame', 'UNAVAILABLE', 'Redis down', (client) => client.watchAnswer({ game_id: UNKNOWN }), { replicas: 'dead' });

// ResolvePlayerToken
add('ResolvePlayerToken', 'INVALID_ARGUMENT', 'empty game_id',
  (client) => client.call('ResolvePlayerToken', { game_id: '', player_token: 't' }), { message: /game_id/ });
add('ResolvePlayerToken', 'INVALID_ARGUMENT', 'empty player_token',
  (client, game) => client.call('ResolvePlayerToken', { game_id: game.id, player_token: '' }), { setup: fresh, message: /player_token/ });
add('ResolvePlayerToken', 'NOT_FOUND', 'unknown game_id',
  (client) => client.call('ResolvePlayerToken', { game_id: UNKNOWN, player_token: 't' }));
add('ResolvePlayerToken', 'PERMISSION_DENIED', 'a token that is no seat\'s of this game', async (client, game) => {
  const other = await fresh();
  return client.call('ResolvePlayerToken', { game_id: game.id, player_token: other.white });
}, { setup: fresh });
add('ResolvePlayerToken', 'UNAVAILABLE', 'Redis down',
  (client) => client.call('ResolvePlayerToken', { game_id: UNKNOWN, player_token: 't' }), { replicas: 'dead' });

// RecordPresence
const presence = (game, changes = {}) => ({
  game_id: game.id, color: 'COLOR_WHITE', connected: true, idempotency_key: `p-${Math.random().toString(36).slice(2)}`, ...changes,
});
add('RecordPresence', 'INVALID_ARGUMENT', 'empty game_id',
  (client, game) => client.call('RecordPresence', presence(game, { game_id: '' })), { setup: fresh, message: /game_id/ });
add('RecordPresence', 'INVALID_ARGUMENT', 'empty idempotency_key',
  (client, game) => client.call('RecordPresence', presence(game, { idempotency_key: '' })), { setup: fresh, message: /idempotency_key/ });
add('RecordPresence', 'INVALID_ARGUMENT', 'unspecified color',
  (client, game) => client.call('RecordPresence', presence(game, { color: 'COLOR_UNSPECIFIED' })), { setup: fresh, message: /color/ });
add('RecordPresence', 'NOT_FOUND', 'unknown game_id', (client) => client.call('RecordPresence', presence({ id: UNKNOWN })));
add('RecordPresence', 'FAILED_PRECONDITION', 'the game is over',
  (client, game) => client.call('RecordPresence', presence(game)), { setup: resigned, message: /over/ });
add('RecordPresence', 'FAILED_PRECONDITION', 'the seat is a bot',
  (client, game) => client.call('RecordPresence', presence(game, { color: 'COLOR_BLACK', connected: false })),
  { setup: againstBot, message: /bot/ });
add('RecordPresence', 'UNAVAILABLE', 'Redis down', (client) => client.call('RecordPresence', presence({ id: UNKNOWN })),
  { replicas: 'dead' });

// DeclareAbandoned
const abandon = (game, changes = {}) => ({ game_id: game.id, color: 'COLOR_WHITE', expected_ply: 0, ...changes });
add('DeclareAbandoned', 'INVALID_ARGUMENT', 'empty game_id',
  (client, game) => client.call('DeclareAbandoned', abandon(game, { game_id: '' })), { setup: fresh, message: /game_id/ });
add('DeclareAbandoned', 'INVALID_ARGUMENT', 'negative expected_ply',
  (client, game) => client.call('DeclareAbandoned', abandon(game, { expected_ply: -3 })), { setup: fresh, message: /expected_ply/ });
add('DeclareAbandoned', 'INVALID_ARGUMENT', 'unspecified color',
  (client, game) => client.call('DeclareAbandoned', abandon(game, { color: 'COLOR_UNSPECIFIED' })), { setup: fresh, message: /color/ });
add('DeclareAbandoned', 'NOT_FOUND', 'unknown game_id', (client) => client.call('DeclareAbandoned', abandon({ id: UNKNOWN })));
add('DeclareAbandoned', 'FAILED_PRECONDITION', 'the game is over',
  (client, game) => client.call('DeclareAbandoned', abandon(game)), { setup: resigned, message: /over/ });
add('DeclareAbandoned', 'FAILED_PRECONDITION', 'the seat is a bot',
  (client, game) => client.call('DeclareAbandoned', abandon(game, { color: 'COLOR_BLACK' })), { setup: againstBot, message: /bot/ });
add('DeclareAbandoned', 'ABORTED', 'a stale expected_ply',
  (client, game) => client.call('DeclareAbandoned', abandon(game, { expected_ply: 2 })), { setup: fresh });
add('DeclareAbandoned', 'UNAVAILABLE', 'Redis down', (client) => client.call('DeclareAbandoned', abandon({ id: UNKNOWN })),
  { replicas: 'dead' });

// CreateGame UNAVAILABLE
add('CreateGame', 'UNAVAILABLE', 'Redis down', (client) => client.call('CreateGame', {
  idempotency_key: 'contract-redis-down', variant: 'international',
  white: { kind: 'SEAT_KIND_GUEST', player_id: 'g_w', display_name: 'W' },
  black: { kind: 'SEAT_KIND_GUEST', player_id: 'g_b', display_name: 'B' },
}), { replicas: 'dead' });

// --- Running them --------------------------------------------------------------

// What a refused call must not have touched.
const footprint = (game) => ({ version: game.version, last_event_id: game.last_event_id, ply: game.ply, fen: game.fen });

for (const c of cases) {
  test(`${c.call} ${c.code}: ${c.why}`, async () => {
    const game = c.setup ? await c.setup() : undefined;
    const replicas = c.replicas === 'dead' ? [D] : [A, B];
    for (const client of replicas) {
      // A case that moves the game itself (changes: true) starts again.
      const subject = c.changes && client !== replicas[0] ? await c.setup() : game;
      const before = subject?.id ? footprint(await getGame(A, subject.id)) : null;
      const answer = await c.run(client, subject);
      await expectCodeOn(client, c, answer);
      if (before && !c.changes) {
        assert.deepEqual(footprint(await getGame(A, subject.id)), before, `${c.call} refused on ${client.name} but changed the game`);
      }
    }
  });
}

async function expectCodeOn(client, c, answer) {
  try {
    expectCode(c.call, answer, c.code, c.code === 'INVALID_ARGUMENT' ? c.message : undefined);
  } catch (error) {
    error.message = `on replica ${client.name}: ${error.message}`;
    throw error;
  }
}

// --- The list above against the docs ------------------------------------------

test('docs/API.md: every code listed for a GameService call is exercised above, and no other', () => {
  const table = codesFromApiTable();
  const exercised = new Map();
  for (const c of cases) {
    if (!exercised.has(c.call)) exercised.set(c.call, new Set());
    exercised.get(c.call).add(c.code);
  }
  const sorted = (set) => [...(set ?? [])].sort();
  assert.deepEqual([...exercised.keys()].sort(), [...table.keys()].sort(), 'calls in the table vs calls exercised');
  // common.proto: a refused call's message says what was wrong.
  const unchecked = cases.filter((c) => c.code === 'INVALID_ARGUMENT' && !(c.message instanceof RegExp));
  assert.deepEqual(unchecked.map((c) => `${c.call}: ${c.why}`), [], 'INVALID_ARGUMENT cases must check the message');
  for (const [call, codes] of table) {
    assert.deepEqual(sorted(exercised.get(call)), sorted(codes), `${call}: codes exercised vs codes in docs/API.md`);
  }
});

test('game.proto: each call\'s "Errors:" list is the docs/API.md row, for every call of GameService', () => {
  const table = codesFromApiTable();
  const proto = codesFromGameProto();
  assert.deepEqual([...proto.keys()].sort(), [...table.keys()].sort(), 'calls of GameService vs rows of the table');
  for (const [call, codes] of proto) {
    assert.deepEqual([...codes].sort(), [...table.get(call)].sort(), `${call}: game.proto "Errors:" vs docs/API.md`);
  }
});

test('the docs parsers see an edit: a code dropped from a row, a code added to a call\'s comment', () => {
  const markdown = fs.readFileSync(apiMdPath, 'utf8');
  const edited = markdown.replace(/^\| `GetGame` \| x \| x \|/m, '| `GetGame` | x |  |');
  assert.notEqual(edited, markdown, 'the GetGame row was not found in docs/API.md');
  assert.deepEqual([...codesFromApiTable(edited).get('GetGame')].sort(), ['INVALID_ARGUMENT', 'UNAVAILABLE']);
  const proto = fs.readFileSync(gameProtoPath, 'utf8');
  const withAborted = proto.replace('//   NOT_FOUND: unknown game_id (or expired', '//   ABORTED: invented.\n  //   NOT_FOUND: unknown game_id (or expired');
  assert.notEqual(withAborted, proto, 'the GetGame comment was not found in game.proto');
  assert.ok(codesFromGameProto(withAborted).get('GetGame').has('ABORTED'));
});
