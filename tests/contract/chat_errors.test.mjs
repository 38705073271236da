// Contract test of the chat service's error codes, from outside: every code
// docs/API.md and chat.proto document for every ChatService call is
// provoked against the real chat binary (with a real game_state on a
// private Redis, and a chat replica whose Redis is down for UNAVAILABLE).
// A refused post leaves the room as it was. The cases are compared with
// both documents, so neither can drift.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from './lib/cluster.mjs';
import { GameClient, createGame } from './lib/game_client.mjs';
import {
  ChatClient, chatCodesFromApiTable, chatCodesFromProto, expectChatCode, newKey,
  startChat, startTablesStandIn,
} from './lib/chat_client.mjs';

const cluster = new Cluster();
const tables = new Map([
  ['open-table', { options: { spectators_muted: false } }],
  ['quiet-table', { options: { spectators_muted: true } }],
]);
let standIn;
let games;
let chat;  // rate window shortened so the RESOURCE_EXHAUSTED case ends soon
let down;  // its Redis is down
let game;  // a game without a table

before(async () => {
  await cluster.startRedis();
  const replica = await cluster.startReplica('game-state');
  games = new GameClient('game-state', replica.address);
  standIn = await startTablesStandIn(tables);
  const common = { gameState: replica.address, matchmaking: standIn.address };
  const [address, deadAddress] = await Promise.all([
    startChat(cluster, 'chat', { ...common, redis: cluster.redisAddress, extra: ['--rate-window=3s'] }),
    cluster.deadRedisAddress().then((dead) => startChat(cluster, 'chat-dead-redis', { ...common, redis: dead })),
  ]);
  chat = new ChatClient('chat', address);
  down = new ChatClient('chat-dead-redis', deadAddress);
  game = await createGame(games);
});

after(async () => {
  for (const client of [chat, down, games]) client?.close();
  standIn?.server.forceShutdown();
  await cluster.stop();
});

const room = () => ({ game_id: game.id });
const spectator = (session = `session-${newKey()}`, display_name = 'Watcher') =>
  ({ spectator_session: session, display_name });
const player = (token = game.white, game_id = game.id) => ({ player: { game_id, player_token: token } });
const post = (changes = {}) => ({
  room: room(), author: spectator(), text: 'hello', idempotency_key: newKey(), ...changes,
});

// --- The cases ----------------------------------------------------------------
const cases = [
  // PostMessage
  { call: 'PostMessage', code: 'INVALID_ARGUMENT', why: 'no room', message: /room/, run: () => chat.call('PostMessage', post({ room: null })) },
  { call: 'PostMessage', code: 'INVALID_ARGUMENT', why: 'no author', message: /author/, run: () => chat.call('PostMessage', post({ author: null })) },
  { call: 'PostMessage', code: 'INVALID_ARGUMENT', why: 'no key', message: /idempotency_key/, run: () => chat.call('PostMessage', post({ idempotency_key: '' })) },
  { call: 'PostMessage', code: 'INVALID_ARGUMENT', why: 'empty text', message: /text is empty/, run: () => chat.call('PostMessage', post({ text: '   ' })) },
  { call: 'PostMessage', code: 'INVALID_ARGUMENT', why: '501 characters', message: /501 characters.*500/, run: () => chat.call('PostMessage', post({ text: 'ж'.repeat(501) })) },
  { call: 'PostMessage', code: 'INVALID_ARGUMENT', why: 'a line break', message: /control characters/, run: () => chat.call('PostMessage', post({ text: 'one\ntwo' })) },
  { call: 'PostMessage', code: 'INVALID_ARGUMENT', why: 'spectator without a name', message: /display_name/, run: () => chat.call('PostMessage', post({ author: spectator(undefined, '') })) },
  {
    call: 'PostMessage', code: 'INVALID_ARGUMENT', why: 'key reused with another text', message: /idempotency_key/,
    run: async () => {
      const first = post();
      const answer = await chat.call('PostMessage', first);
      assert.equal(answer.error, null);
      return chat.call('PostMessage', { ...first, text: 'something else' });
    },
    posts: 1,
  },
  { call: 'PostMessage', code: 'NOT_FOUND', why: 'unknown game', message: /game/, run: () => chat.call('PostMessage', post({ room: { game_id: 'nosuchgame' } })) },
  { call: 'PostMessage', code: 'NOT_FOUND', why: 'unknown table', message: /table/, run: () => chat.call('PostMessage', post({ room: { table_id: 'nosuchtable' } })) },
  { call: 'PostMessage', code: 'PERMISSION_DENIED', why: 'not a seat token', run: () => chat.call('PostMessage', post({ author: player('not-a-token') })) },
  {
    call: 'PostMessage', code: 'PERMISSION_DENIED', why: "another game's seat", message: /room/,
    run: async () => {
      const other = await createGame(games);
      return chat.call('PostMessage', post({ author: player(other.white, other.id) }));
    },
  },
  { call: 'PostMessage', code: 'PERMISSION_DENIED', why: 'muted spectators', message: /muted/, run: () => chat.call('PostMessage', post({ room: { table_id: 'quiet-table' } })) },
  {
    call: 'PostMessage', code: 'RESOURCE_EXHAUSTED', why: 'a sixth message in the window', message: /wait \d+ s/,
    run: async () => {
      const author = spectator();
      for (let i = 0; i < 5; i += 1) {
        const answer = await chat.call('PostMessage', post({ author, text: `m${i}` }));
        assert.equal(answer.error, null, answer.error?.details);
      }
      return chat.call('PostMessage', post({ author, text: 'one too many' }));
    },
    posts: 5,
  },
  { call: 'PostMessage', code: 'UNAVAILABLE', why: 'Redis down', run: () => down.call('PostMessage', post()) },
  // ListMessages
  { call: 'ListMessages', code: 'INVALID_ARGUMENT', why: 'no room', message: /room/, run: () => chat.call('ListMessages', {}) },
  { call: 'ListMessages', code: 'INVALID_ARGUMENT', why: 'negative page_size', message: /page_size/, run: () => chat.call('ListMessages', { room: room(), page_size: -1 }) },
  { call: 'ListMessages', code: 'INVALID_ARGUMENT', why: 'bad page_token', message: /page_token/, run: () => chat.call('ListMessages', { room: room(), page_token: 'garbage' }) },
  { call: 'ListMessages', code: 'NOT_FOUND', why: 'unknown table', run: () => chat.call('ListMessages', { room: { table_id: 'nosuchtable' } }) },
  { call: 'ListMessages', code: 'UNAVAILABLE', why: 'Redis down', run: () => down.call('ListMessages', { room: room() }) },
  // WatchChat
  { call: 'WatchChat', code: 'INVALID_ARGUMENT', why: 'no room', message: /room/, run: () => chat.watch({}) },
  { call: 'WatchChat', code: 'INVALID_ARGUMENT', why: 'malformed from_message_id', message: /from_message_id/, run: () => chat.watch({ room: room(), from_message_id: 'soon' }) },
  { call: 'WatchChat', code: 'NOT_FOUND', why: 'unknown game', run: () => chat.watch({ room: { game_id: 'nosuchgame' } }) },
  { call: 'WatchChat', code: 'UNAVAILABLE', why: 'Redis down', run: () => down.watch({ room: room() }) },
];

async function roomSize() {
  const { error, response } = await chat.call('ListMessages', { room: room(), page_size: 200 });
  assert.equal(error, null);
  return response.messages.length;
}

for (const c of cases) {
  test(`${c.call} ${c.code}: ${c.why}`, async () => {
    const before = await roomSize();
    expectChatCode(c.call, await c.run(), c.code, c.message);
    if (c.call === 'PostMessage') {
      // Only the set-up's own posts (c.posts) are in the room.
      assert.equal(await roomSize(), before + (c.posts ?? 0), 'a refused post changes nothing');
    }
  });
}

test('every documented code of every ChatService call has a case, and the two documents agree', () => {
  const fromApi = chatCodesFromApiTable();
  const fromProto = chatCodesFromProto();
  for (const [call, codes] of fromApi) {
    assert.deepEqual([...codes].sort(), [...(fromProto.get(call) ?? [])].sort(),
      `${call}: docs/API.md and chat.proto list different codes`);
    for (const code of codes) {
      assert.ok(cases.some((c) => c.call === call && c.code === code), `no case for ${call} ${code}`);
    }
  }
});

test('a post from a seat shows the seat, never the token', async () => {
  const { error, response } = await chat.call('PostMessage', post({ author: player(), text: ' gl hf ' }));
  assert.equal(error, null, error?.details);
  const { message } = response;
  assert.equal(message.role, 'CHAT_ROLE_PLAYER');
  assert.equal(message.color, 'COLOR_WHITE');
  assert.equal(message.display_name, game.request.white.display_name);
  assert.equal(message.player_id, game.request.white.player_id);
  assert.equal(message.text, 'gl hf');
  assert.ok(!JSON.stringify(message).includes(game.white));
});
