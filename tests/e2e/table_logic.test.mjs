// Unit tests (no browser, no servers) of the table screen's pure parts: the
// move timer, presence, the move list, the running score, the rematch
// window, which actions a player is offered, the chat lines, the rating
// changes after a rated game, and the table
// screen's texts (English and French with the same keys).
import assert from 'node:assert/strict';
import {test} from 'node:test';

import {boardOptions, federationNamesDiffer, moveInNotation, notationLabelKey} from '../../web/dist/js/board_notation.js';
import {actionsState} from '../../web/dist/js/table/actions_view.js';
import {chatLine, cleanChatInput, MAX_CHAT_CHARS, MAX_CHAT_LINES, mergeChat} from '../../web/dist/js/table/chat_view.js';
import {clockState, WARNING_MS} from '../../web/dist/js/table/clock_view.js';
import {automaticPlies, moveRows} from '../../web/dist/js/table/move_list_view.js';
import {presenceState} from '../../web/dist/js/table/presence_view.js';
import {formatDelta, ratingChangeOf} from '../../web/dist/js/table/rating_change.js';
import {rematchState} from '../../web/dist/js/table/rematch_view.js';
import {formatPoints, seatPoints} from '../../web/dist/js/table/score.js';
import {durationMs, formatCountdown, instantMs, ServerClock} from '../../web/dist/js/table/time.js';
import {frameKind, resumeQuery} from '../../web/dist/js/table/table_socket.js';
import * as tableStrings from '../../web/dist/js/strings/table.js';

const T0 = Date.parse('2026-12-01T22:00:00Z');
const iso = (ms) => new Date(ms).toISOString();

test('countdowns round up to whole seconds and never go negative', () => {
  assert.equal(formatCountdown(60000), '1:00');
  assert.equal(formatCountdown(59001), '1:00');
  assert.equal(formatCountdown(59000), '0:59');
  assert.equal(formatCountdown(7200), '0:08');
  assert.equal(formatCountdown(1), '0:01');
  assert.equal(formatCountdown(0), '0:00');
  assert.equal(formatCountdown(-5000), '0:00');
  assert.equal(formatCountdown(300000), '5:00');
  assert.equal(durationMs('60s'), 60000);
  assert.equal(durationMs('0.5s'), 500);
  assert.ok(Number.isNaN(durationMs('60')));
  assert.ok(Number.isNaN(instantMs('')));
  assert.equal(instantMs('2026-12-01T22:00:00Z'), T0);
});

test('the server clock adds the offset learned from a frame', () => {
  let local = 1000;
  const clock = new ServerClock(() => local);
  assert.equal(clock.now(), 1000);
  clock.learn(iso(T0));
  assert.equal(clock.now(), T0);
  local += 2500;
  assert.equal(clock.now(), T0 + 2500);
  clock.learn('not a time');
  assert.equal(clock.now(), T0 + 2500);
});

test('the move timer counts down for the side to move and warns in the last 10 s', () => {
  const clock = {armed: true, color: 'COLOR_BLACK', expectedPly: 6, deadline: iso(T0 + 30000)};
  const calm = clockState(clock, 6, T0);
  assert.deepEqual(
    {running: calm.running, color: calm.color, text: calm.text, warning: calm.warning, expired: calm.expired},
    {running: true, color: 'black', text: '0:30', warning: false, expired: false},
  );
  assert.equal(clockState(clock, 6, T0 + 30000 - WARNING_MS - 1).warning, false);
  const hurry = clockState(clock, 6, T0 + 30000 - WARNING_MS);
  assert.equal(hurry.warning, true);
  assert.equal(hurry.text, '0:10');
  const over = clockState(clock, 6, T0 + 31000);
  assert.equal(over.expired, true);
  assert.equal(over.text, '0:00');
  // A timer for another ply is stale; an untimed or finished game has none.
  assert.equal(clockState(clock, 7, T0).running, false);
  assert.equal(clockState({...clock, armed: false}, 6, T0).running, false);
  assert.equal(clockState({...clock, deadline: undefined}, 6, T0).running, false);
  assert.equal(clockState(null, 6, T0).running, false);
});

test('presence says connected, away since when and for how long, computer standing in, or a bot', () => {
  const guest = {occupant: {kind: 'SEAT_KIND_GUEST'}, connected: true, computerPlaying: false};
  assert.equal(presenceState(guest, undefined, T0).state, 'connected');
  assert.equal(presenceState({connected: false}, undefined, T0).state, 'empty');
  assert.equal(presenceState({connected: false, computerPlaying: true}, undefined, T0).state, 'computer', 'left, the computer plays on');
  const away = presenceState({...guest, connected: false, abandonDeadline: iso(T0 + 105000)}, iso(T0 - 15000), T0);
  assert.equal(away.state, 'disconnected');
  assert.equal(away.awayMs, 15000);
  assert.equal(away.abandonInMs, 105000);
  assert.equal(away.abandonText, '1:45');
  const unknownSince = presenceState({...guest, connected: false}, undefined, T0);
  assert.equal(unknownSince.state, 'disconnected');
  assert.equal(unknownSince.abandonText, '');
  assert.equal(presenceState({...guest, connected: false, computerPlaying: true}, undefined, T0).state, 'computer');
  assert.equal(presenceState({occupant: {kind: 'SEAT_KIND_BOT'}, connected: true}, undefined, T0).state, 'bot');
  assert.equal(presenceState({index: 1}, undefined, T0).state, 'empty');
  assert.equal(presenceState(undefined, undefined, T0).state, 'empty');
});

test('the move list numbers moves from the side that starts and marks automatic ones', () => {
  const rows = moveRows(['11-15', '23-19', '8-11', '22-17', '15x24'], 'black', new Set([4]));
  assert.equal(rows.length, 3);
  assert.deepEqual(rows[0], {
    number: 1,
    first: {ply: 1, notation: '11-15', color: 'black', automatic: false},
    second: {ply: 2, notation: '23-19', color: 'white', automatic: false},
  });
  assert.equal(rows[1].second.automatic, true);
  assert.equal(rows[2].first.notation, '15x24');
  assert.equal(rows[2].second, null);
  assert.deepEqual(moveRows([], 'white'), []);
  assert.equal(moveRows(['32-28'], 'white')[0].first.color, 'white');
});

test('automatic plies come from the events and an undo takes them back', () => {
  const events = [
    {ply: 0, gameCreated: {}},
    {ply: 1, movePlayed: {automatic: false}},
    {ply: 2, movePlayed: {automatic: true}},
    {ply: 3, movePlayed: {automatic: true}},
  ];
  assert.deepEqual([...automaticPlies(events)].sort(), [2, 3]);
  assert.deepEqual([...automaticPlies([...events, {ply: 2, moveUndone: {}}])], [2]);
  assert.deepEqual([...automaticPlies([...events, {ply: 1, moveUndone: {}}, {ply: 2, movePlayed: {}}])], []);
});

test('the score is per seat: wins plus half the draws, written with ½', () => {
  assert.deepEqual(seatPoints({gamesFinished: 4, draws: 1, wins: [2, 1]}), [2.5, 1.5]);
  assert.deepEqual(seatPoints({gamesFinished: 0, draws: 0, wins: []}), [0, 0]);
  assert.deepEqual(seatPoints(undefined), [0, 0]);
  assert.equal(formatPoints(2.5), '2½');
  assert.equal(formatPoints(0.5), '½');
  assert.equal(formatPoints(3), '3');
  assert.equal(formatPoints(0), '0');
});

test('the rematch vote is open for its window, once per seat, never to a spectator', () => {
  const table = {status: 'TABLE_STATUS_FINISHED', rematchDeadline: iso(T0 + 120000)};
  const seats = [{index: 0, rematchVote: false, yours: true}, {index: 1, rematchVote: true, yours: false}];
  const mine = rematchState(table, seats, T0 + 1000);
  assert.equal(mine.open, true);
  assert.equal(mine.canVote, true);
  assert.equal(mine.otherVote, true);
  assert.equal(mine.text, '1:59');
  const voted = rematchState(table, [{...seats[0], rematchVote: true}, seats[1]], T0);
  assert.equal(voted.myVote, true);
  assert.equal(voted.canVote, false);
  const watcher = rematchState(table, seats.map((s) => ({...s, yours: false})), T0);
  assert.equal(watcher.open, true);
  assert.equal(watcher.canVote, false);
  const late = rematchState(table, seats, T0 + 120000);
  assert.equal(late.expired, true);
  assert.equal(late.canVote, false);
  assert.equal(rematchState({...table, status: 'TABLE_STATUS_PLAYING'}, seats, T0).open, false);
});

test('actions: draw offers between people only, undo against the computer after a move, nothing for spectators', () => {
  const game = {result: 'GAME_RESULT_ONGOING', ply: 0, sideToMove: 'COLOR_WHITE', drawOfferedBy: 'COLOR_UNSPECIFIED', rated: false};
  const people = actionsState(game, 'white', {vsComputer: false, busy: false});
  assert.equal(people.offerDraw, true);
  assert.equal(people.resign, true);
  assert.equal(people.undo, false);
  const offered = {...game, drawOfferedBy: 'COLOR_WHITE'};
  assert.equal(actionsState(offered, 'white', {vsComputer: false, busy: false}).offerDraw, false);
  assert.equal(actionsState(offered, 'white', {vsComputer: false, busy: false}).drawPendingFromMe, true);
  assert.equal(actionsState(offered, 'black', {vsComputer: false, busy: false}).acceptDraw, true);
  assert.equal(actionsState(offered, 'black', {vsComputer: false, busy: true}).acceptDraw, false);
  const bot = actionsState(game, 'white', {vsComputer: true, busy: false});
  assert.equal(bot.offerDraw, false);
  assert.equal(bot.undo, false);
  // White moved once and the bot has not answered yet: white may take it back.
  assert.equal(actionsState({...game, ply: 1, sideToMove: 'COLOR_BLACK'}, 'white', {vsComputer: true, busy: false}).undo, true);
  // Black (second) before its first move: nothing to take back.
  assert.equal(actionsState({...game, ply: 1, sideToMove: 'COLOR_BLACK'}, 'black', {vsComputer: true, busy: false}).undo, false);
  assert.equal(actionsState({...game, ply: 4}, 'white', {vsComputer: true, busy: false}).undo, true);
  assert.equal(actionsState({...game, ply: 4, rated: true}, 'white', {vsComputer: true, busy: false}).undo, false);
  assert.deepEqual(Object.values(actionsState(game, '', {vsComputer: false, busy: false})).filter(Boolean), []);
  assert.equal(actionsState({...game, result: 'GAME_RESULT_DRAW'}, 'white', {vsComputer: false, busy: false}).resign, false);
});

test('chat lines keep order by id, each once, and inputs are trimmed and capped', () => {
  const a = {messageId: '1700000000000-1', role: 'CHAT_ROLE_PLAYER', color: 'COLOR_BLACK', displayName: 'Ann', text: 'hi'};
  const b = {messageId: '1700000000000-10', role: 'CHAT_ROLE_SPECTATOR', displayName: 'Sam', text: 'nice'};
  const c = {messageId: '1700000000001-2', role: 'CHAT_ROLE_SYSTEM', noticeKind: 'KIND_PLAYER_LEFT', color: 'COLOR_WHITE', text: 'White left'};
  let lines = mergeChat([], [c, a]);
  lines = mergeChat(lines, [b, a]);
  assert.deepEqual(lines.map((l) => l.id), [a.messageId, b.messageId, c.messageId]);
  assert.deepEqual(chatLine(a), {id: a.messageId, kind: 'player', who: 'Ann', color: 'black', text: 'hi', notice: ''});
  assert.equal(chatLine(b).kind, 'spectator');
  assert.equal(chatLine(c).notice, 'KIND_PLAYER_LEFT');
  const many = Array.from({length: MAX_CHAT_LINES + 5}, (_, i) => ({messageId: `1-${i}`, text: String(i)}));
  const capped = mergeChat([], many);
  assert.equal(capped.length, MAX_CHAT_LINES);
  assert.equal(capped[capped.length - 1].text, String(MAX_CHAT_LINES + 4));
  assert.equal(cleanChatInput('   '), '');
  assert.equal(cleanChatInput('  bonjour '), 'bonjour');
  assert.equal([...cleanChatInput('é'.repeat(MAX_CHAT_CHARS + 9))].length, MAX_CHAT_CHARS);
});

// Every key of one language is in the other, and the French is not a copy of the English.
test('the table screen texts have the same keys in English and French', () => {
  const keys = (node, prefix = '') =>
    Object.entries(node).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`)));
  assert.deepEqual(keys(tableStrings.fr).sort(), keys(tableStrings.en).sort());
  const lookup = (table, key) => key.split('.').reduce((n, p) => n[p], table);
  const same = keys(tableStrings.en).filter((k) => lookup(tableStrings.en, k) === lookup(tableStrings.fr, k));
  assert.ok(same.length < 8, `untranslated: ${same.join(', ')}`);
  for (const k of keys(tableStrings.en)) {
    const names = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    assert.deepEqual(names(lookup(tableStrings.fr, k)), names(lookup(tableStrings.en, k)), k);
  }
});

test('the table socket resumes after the last game event and chat line, and names each frame', () => {
  assert.equal(resumeQuery({gameId: '', lastEventId: '', lastChatId: ''}), '?snapshotAfter=1');
  assert.equal(resumeQuery({gameId: 'g1', lastEventId: '', lastChatId: ''}), '?snapshotAfter=1');
  assert.equal(resumeQuery({gameId: 'g1', lastEventId: '17-0', lastChatId: ''}), '?snapshotAfter=1&game=g1&after=17-0');
  assert.equal(resumeQuery({gameId: 'g1', lastEventId: '17-0', lastChatId: '20-1'}), '?snapshotAfter=1&game=g1&after=17-0&chatAfter=20-1');
  assert.equal(resumeQuery({gameId: '', lastEventId: '', lastChatId: '20-1'}), '?snapshotAfter=1&chatAfter=20-1');
  assert.equal(frameKind({requestId: '', welcome: {role: 'ROLE_PLAYER'}}), 'welcome');
  assert.equal(frameKind({requestId: 'r2', ack: {started: false}}), 'ack');
  assert.equal(frameKind({requestId: 'r2'}), '');
  // The snapshot riding beside an event never names the frame, whatever
  // the order of the members.
  assert.equal(frameKind({requestId: '', snapshotAfter: {game: {}}, gameEvent: {ply: 3}}), 'gameEvent');
  assert.equal(frameKind({requestId: '', gameEvent: {ply: 3}, snapshotAfter: {game: {}}}), 'gameEvent');
  assert.equal(frameKind(null), '');
  assert.equal(frameKind('text'), '');
});

test('rating changes: each colour its own, signed, only for the game shown', () => {
  const over = {
    gameId: 'g1',
    result: 'GAME_RESULT_BLACK_WINS',
    ratingChanges: [
      {playerId: 'a', color: 'COLOR_WHITE', month: '2026-12', eloBefore: 1500, eloAfter: 1484},
      {playerId: 'b', color: 'COLOR_BLACK', month: '2026-12', eloBefore: 1500, eloAfter: 1516},
    ],
  };
  assert.deepEqual(ratingChangeOf(over, 'g1', 'black'), {before: 1500, after: 1516, delta: 16});
  assert.deepEqual(ratingChangeOf(over, 'g1', 'white'), {before: 1500, after: 1484, delta: -16});
  // The first gameOver (no changes yet), an unrated game, another game.
  assert.equal(ratingChangeOf({...over, ratingChanges: []}, 'g1', 'white'), null);
  assert.equal(ratingChangeOf({gameId: 'g1'}, 'g1', 'black'), null);
  assert.equal(ratingChangeOf(over, 'g2', 'white'), null);
  assert.equal(ratingChangeOf(null, 'g1', 'white'), null);
  assert.equal(formatDelta(16), '+16');
  assert.equal(formatDelta(-16), '\u221216');
  assert.equal(formatDelta(0), '\u00b10');
  for (const strings of [tableStrings.en, tableStrings.fr]) {
    const text = strings.tableScreen.ratingChange.replace('{delta}', formatDelta(16)).replace('{elo}', '1516');
    assert.equal(text, '+16 (1516)');
    assert.match(strings.tableScreen.ratingChangeTitle, /\{before\}.*\{after\}/);
  }
});

// Russian's federation names as /api/variants gives them: square 1 is b8 .. 32 is g1.
function russianNames() {
  const names = [];
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) if ((row + col) % 2 === 1) names.push(`${'abcdefgh'[col]}${8 - row}`);
  }
  return names;
}

test('the federation notation setting: offered where the names differ, moves written its way', () => {
  const russian = {notation: {style: 'coordinates', captureSeparator: ':', squareNames: russianNames()}};
  const international = {notation: {style: 'numbers', captureSeparator: 'x', squareNames: Array.from({length: 50}, (_, i) => String(i + 1))}};
  const italian = {notation: {style: 'numbers', captureSeparator: 'x', squareNames: Array.from({length: 32}, (_, i) => String(((i >> 2) << 2) + 4 - (i % 4)))}};
  assert.equal(russian.notation.squareNames[0], 'b8');
  assert.equal(russian.notation.squareNames[31], 'g1');
  assert.equal(federationNamesDiffer(russian), true);
  assert.equal(federationNamesDiffer(italian), true);
  assert.equal(federationNamesDiffer(international), false);
  assert.equal(federationNamesDiffer({}), false);
  assert.equal(notationLabelKey(russian), 'boardNotation.coordinates');
  assert.equal(notationLabelKey(italian), 'boardNotation.numbering');
  // On by default: the board then reads like the move list.
  assert.deepEqual(boardOptions({}), {showMoves: true, showNumbers: true, coordinates: true});
  assert.deepEqual(boardOptions({showNumbers: false, coordinates: false}), {showMoves: true, showNumbers: false, coordinates: false});
  assert.equal(moveInNotation('22-18', russian, {}), 'c3-d4');
  assert.equal(moveInNotation('22x15x8', russian, {}), 'c3:e5:g7');
  assert.equal(moveInNotation('22x15', {notation: {...russian.notation, captureSeparator: undefined}}, {}), 'c3xe5');
  assert.equal(moveInNotation('22-18', russian, {coordinates: false}), '22-18', 'switched off: the standard numbers');
  assert.equal(moveInNotation('1-4', italian, {}), '4-1');
  assert.equal(moveInNotation('32-28', international, {}), '32-28');
  for (const odd of ['', 'resign', '99-18', '22-', 'x']) assert.equal(moveInNotation(odd, russian, {}), odd, `"${odd}" unchanged`);
});
