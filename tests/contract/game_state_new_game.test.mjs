// Contract test of a new game as every replica shows it, from outside
// (commit 8048873): nobody is connected until the clock reports it
// (RecordPresence), bots always are; seats keep the names they were given.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from './lib/cluster.mjs';
import { startTwoReplicas, bot, createGame, getGame } from './lib/game_client.mjs';

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
