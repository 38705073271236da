// Contract test of what a spectator can do, from outside: read and watch any
// game without a token (and never see a seat's token), but never act. An
// acting call without a token is INVALID_ARGUMENT, with a token that is not
// one of the game's seats (another game's, or made up) PERMISSION_DENIED,
// on every replica, and the game stays as it was. The same request with the
// right token then succeeds, so only the token was wrong.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from './lib/cluster.mjs';
import { startTwoReplicas, bot, createGame, getGame, play } from './lib/game_client.mjs';
import { expectCode, expectOk } from './lib/documented_codes.mjs';

const cluster = new Cluster();
let A;
let B;
let otherGame;  // a game the spectator plays in: its tokens are real, but not of the watched game

before(async () => {
  ({ A, B } = await startTwoReplicas(cluster));
  otherGame = await createGame(A);
});

after(async () => {
  A?.close();
  B?.close();
  await cluster.stop();
});

// Per acting call: a game where the player's call succeeds, and that call.
const actingCalls = [
  {
    call: 'SubmitMove',
    setup: () => createGame(A),
    request: (game, token) => ({ game_id: game.id, player_token: token, move: '32-28', expected_ply: 0 }),
    player: (game) => game.white,
  },
  {
    call: 'Resign',
    setup: () => createGame(A),
    request: (game, token) => ({ game_id: game.id, player_token: token, expected_ply: 0 }),
    player: (game) => game.black,
  },
  {
    call: 'OfferDraw',
    setup: () => createGame(A),
    request: (game, token) => ({ game_id: game.id, player_token: token, expected_ply: 0 }),
    player: (game) => game.white,
  },
  {
    call: 'RespondDraw',
    setup: async () => {
      const game = await createGame(A);
      await A.ok('OfferDraw', { game_id: game.id, player_token: game.white, expected_ply: 0 });
      return game;
    },
    request: (game, token) => ({ game_id: game.id, player_token: token, expected_ply: 0, accept: true }),
    player: (game) => game.black,
  },
  {
    call: 'UndoMove',
    setup: async () => {
      const game = await createGame(A, { black: bot() });
      await play([A], game, ['32-28']);
      return game;
    },
    request: (game, token) => ({ game_id: game.id, player_token: token, expected_ply: 1 }),
    player: (game) => game.white,
  },
];

const footprint = (game) => ({ version: game.version, last_event_id: game.last_event_id, fen: game.fen, result: game.result });

for (const { call, setup, request, player } of actingCalls) {
  test(`${call}: a spectator is refused (no token: INVALID_ARGUMENT; another game's or a made-up token: PERMISSION_DENIED)`, async () => {
    const game = await setup();
    const before = footprint(await getGame(A, game.id));
    for (const client of [A, B]) {
      const where = `on replica ${client.name}`;
      expectCode(call, await client.call(call, request(game, '')), 'INVALID_ARGUMENT', /player_token/);
      for (const token of [otherGame.white, otherGame.black, 'made-up-token-0123456789abcdef', 'x'.repeat(5000)]) {
        const answer = await client.call(call, request(game, token));
        try {
          expectCode(call, answer, 'PERMISSION_DENIED');
        } catch (error) {
          error.message = `${where}, token ${token.slice(0, 12)}...: ${error.message}`;
          throw error;
        }
        // The refusal does not tell a spectator anything about the seats' tokens.
        assert.ok(!answer.error.details.includes(game.white) && !answer.error.details.includes(game.black));
      }
      assert.deepEqual(footprint(await getGame(A, game.id)), before, `${call} refused ${where} but changed the game`);
    }
    expectOk(call, await B.call(call, request(game, player(game))));
  });
}

test('ResolvePlayerToken: another game\'s token is no seat of this game', async () => {
  const game = await createGame(A);
  for (const client of [A, B]) {
    expectCode('ResolvePlayerToken', await client.call('ResolvePlayerToken', { game_id: game.id, player_token: otherGame.white }),
      'PERMISSION_DENIED');
    const own = expectOk('ResolvePlayerToken', await client.call('ResolvePlayerToken', { game_id: game.id, player_token: game.black }));
    assert.equal(own.color, 'COLOR_BLACK');
    assert.equal(own.seat.player_id, game.request.black.player_id);
  }
});

test('a spectator reads and watches without a token, and nothing it reads carries a seat\'s token', async () => {
  const game = await createGame(A);
  assert.ok(game.white && game.black && game.white !== game.black, 'CreateGame returns two different tokens');
  await play([A, B], game, ['32-28', '17-21']);
  await B.ok('OfferDraw', { game_id: game.id, player_token: game.white, expected_ply: 2 });
  const seen = [];
  for (const client of [A, B]) {
    seen.push(await client.ok('GetGame', { game_id: game.id }));
    seen.push(await client.ok('ListLegalMoves', { game_id: game.id }));
    seen.push(await client.ok('ListGames', { page_size: 100 }));
    seen.push(await client.ok('ListGames', { player_id: game.request.white.player_id, include_finished: true }));
  }
  const listed = seen[2].games.find((summary) => summary.game_id === game.id);
  assert.ok(listed, 'the live game is listed for spectators');
  await A.ok('Resign', { game_id: game.id, player_token: game.black, expected_ply: 2 });
  const watched = await B.watch({ game_id: game.id }, { timeoutMs: 10000 });
  assert.ok(watched.events.length >= 5, `watched ${watched.events.length} events`);
  seen.push(watched.events);
  const text = JSON.stringify(seen);
  for (const token of [game.white, game.black]) {
    assert.ok(!text.includes(token), 'a seat\'s token appears in what a spectator reads');
  }
});
