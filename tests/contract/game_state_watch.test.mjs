// Contract test of WatchGame across replicas, from outside: a watcher that
// lost its stream (it went away, or its replica drained) resumes on the
// other replica from the last event id it received and gets every event
// exactly once, in order; resuming from the GameEnded event ends at once with
// OK; resuming from past the game's last event fails at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from './lib/cluster.mjs';
import {
  GameClient, startTwoReplicas, compareEventIds, createGame, getGame, laterEventId, play, status,
} from './lib/game_client.mjs';
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

// Quiet opening moves (no piece can take another), White first.
const OPENING = ['35-30', '16-21', '40-35', '11-16', '45-40', '6-11'];

const eventKind = (event) => event.event;

// The whole stream of a finished game, read afresh from its start.
async function wholeStream(client, id) {
  const result = await client.watch({ game_id: id }, { timeoutMs: 10000 });
  assert.equal(result.code, status.OK, `a finished game's stream ends with OK (got ${result.code} ${result.details ?? ''})`);
  return result.events;
}

function assertOneOrderedStream(events, id) {
  assert.equal(eventKind(events[0]), 'game_created');
  assert.equal(eventKind(events.at(-1)), 'game_ended');
  for (const [i, event] of events.entries()) {
    assert.equal(event.game_id, id);
    if (i > 0) {
      assert.equal(compareEventIds(events[i - 1].event_id, event.event_id), -1,
        `event ids must grow: ${events[i - 1].event_id} then ${event.event_id}`);
      assert.ok(BigInt(event.version) > BigInt(events[i - 1].version), 'versions must grow');
    }
  }
}

test('WatchGame resumed on the other replica from the last event id received misses nothing and duplicates nothing', async () => {
  const game = await createGame(A);
  const first = A.watch({ game_id: game.id }, { stopAfter: 3 });
  await play([A, B], game, OPENING.slice(0, 2));
  const part1 = await first;
  assert.equal(part1.code, 'stopped', `the first watcher should have had 3 events (got ${part1.events.length}, ${part1.code})`);

  // Nobody watches while two more moves are played.
  await play([B, A], game, OPENING.slice(2, 4));

  const lastSeen = part1.events.at(-1).event_id;
  const second = B.watch({ game_id: game.id, from_event_id: lastSeen }, { timeoutMs: 20000 });
  await play([A], game, OPENING.slice(4, 5));
  await B.ok('OfferDraw', { game_id: game.id, player_token: game.black, expected_ply: 5 });
  await A.ok('RespondDraw', { game_id: game.id, player_token: game.white, expected_ply: 5, accept: false });
  await play([B], game, OPENING.slice(5, 6));
  await B.ok('Resign', { game_id: game.id, player_token: game.white, expected_ply: 6 });
  const part2 = await second;
  assert.equal(part2.code, status.OK, `the resumed stream ends with OK after GameEnded (got ${part2.code} ${part2.details ?? ''})`);

  const whole = await wholeStream(A, game.id);
  assertOneOrderedStream(whole, game.id);
  assert.deepEqual([...part1.events, ...part2.events], whole);
  // created, 6 moves, offer, decline, end
  assert.equal(whole.length, 10);
});

test('WatchGame on a replica that drains: UNAVAILABLE, then resumed on another replica with nothing lost', async () => {
  const c = await cluster.startReplica('c');
  const C = new GameClient('c', c.address);
  try {
    const game = await createGame(A);
    let received = 0;
    let signalled;
    const first = C.watch({ game_id: game.id }, {
      timeoutMs: 20000,
      onEvent: (event, events) => {
        received = events.length;
      },
    });
    await play([A, B], game, OPENING.slice(0, 2));
    for (let waited = 0; received < 3 && waited < 5000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    assert.equal(received, 3, 'the watcher on c should have the first three events');
    signalled = cluster.terminate(c.child);
    const part1 = await first;
    expectCode('WatchGame', { error: { code: part1.code, details: part1.details } }, 'UNAVAILABLE');
    await signalled;

    await play([B], game, OPENING.slice(2, 3));
    const second = B.watch({ game_id: game.id, from_event_id: part1.events.at(-1).event_id }, { timeoutMs: 20000 });
    await A.ok('Resign', { game_id: game.id, player_token: game.black, expected_ply: 3 });
    const part2 = await second;
    assert.equal(part2.code, status.OK);
    const whole = await wholeStream(B, game.id);
    assertOneOrderedStream(whole, game.id);
    assert.deepEqual([...part1.events, ...part2.events], whole);
  } finally {
    C.close();
    await cluster.terminate(c.child);
  }
});

test('WatchGame from the GameEnded event ends at once with OK and sends nothing (8048873); from the event before it, only GameEnded', async () => {
  const game = await createGame(A);
  await play([A], game, OPENING.slice(0, 1));
  await A.ok('Resign', { game_id: game.id, player_token: game.black, expected_ply: 1 });
  const whole = await wholeStream(A, game.id);
  const ended = whole.at(-1);
  assert.equal(eventKind(ended), 'game_ended');
  for (const client of [A, B]) {
    const fromEnd = expectOk('WatchGame', await client.watchAnswer({ game_id: game.id, from_event_id: ended.event_id }));
    assert.deepEqual(fromEnd.events, [], `replica ${client.name}`);
    assert.ok(fromEnd.ms < 2000, `replica ${client.name} took ${fromEnd.ms} ms to end the stream`);

    const beforeEnd = expectOk('WatchGame', await client.watchAnswer({ game_id: game.id, from_event_id: whole.at(-2).event_id }));
    assert.deepEqual(beforeEnd.events, [ended], `replica ${client.name}`);
  }
});

test('WatchGame from past the last event: FAILED_PRECONDITION at once, for an ongoing and a finished game (8048873)', async () => {
  const ongoing = await createGame(A);
  const finished = await createGame(A);
  await A.ok('Resign', { game_id: finished.id, player_token: finished.white, expected_ply: 0 });
  for (const game of [ongoing, finished]) {
    const last = (await getGame(A, game.id)).last_event_id;
    for (const client of [A, B]) {
      const answer = await client.watchAnswer({ game_id: game.id, from_event_id: laterEventId(last, 60000) });
      expectCode('WatchGame', answer, 'FAILED_PRECONDITION');
      assert.deepEqual(answer.response.events, []);
      assert.ok(answer.response.ms < 2000, `replica ${client.name} took ${answer.response.ms} ms to refuse`);
    }
  }
});

test('WatchGame of an ongoing game from its last event waits, then sends the next move', async () => {
  const game = await createGame(A);
  const last = (await getGame(B, game.id)).last_event_id;
  const watching = B.watch({ game_id: game.id, from_event_id: last }, { stopAfter: 1, timeoutMs: 10000 });
  await new Promise((resolve) => setTimeout(resolve, 300));
  await play([A], game, OPENING.slice(0, 1));
  const result = await watching;
  assert.equal(result.code, 'stopped');
  assert.equal(eventKind(result.events[0]), 'move_played');
  assert.equal(result.events[0].move_played.notation, OPENING[0]);
  assert.equal(compareEventIds(last, result.events[0].event_id), -1);
});
