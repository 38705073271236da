// An independent ChatService client (@grpc/grpc-js, the .proto files loaded
// at run time), the chat binary started next to a Cluster's Redis and
// game_state, a MatchmakingService stand-in for tables (GetTable only: the
// matchmaking service is not on this branch), and what docs/API.md and
// chat.proto document as each ChatService call's error codes.
//
// DRAUGHTS_CHAT_BIN: the chat binary (tests/contract/CMakeLists.txt sets it).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import { codeName, repoRoot } from './game_client.mjs';

const packageDefinition = protoLoader.loadSync(
  ['draughts/v1/chat.proto', 'draughts/v1/matchmaking.proto'],
  {
    includeDirs: [path.join(repoRoot, 'proto')],
    keepCase: true,
    enums: String,
    longs: String,
    defaults: true,
    oneofs: true,
  },
);
const v1 = grpc.loadPackageDefinition(packageDefinition).draughts.v1;

export const newKey = () => `chat-${randomUUID()}`;

export class ChatClient {
  constructor(name, address) {
    this.name = name;
    this.stub = new v1.ChatService(address, grpc.credentials.createInsecure());
  }

  // Resolves with { error, response }; never rejects.
  call(method, request, deadlineMs = 10000) {
    return new Promise((resolve) => {
      this.stub[method](request, { deadline: Date.now() + deadlineMs },
        (error, response) => resolve({ error, response }));
    });
  }

  // WatchChat until `stopAfter` messages came, the stream ended, or
  // `timeoutMs` passed (then `error.codeName` is STILL_WAITING).
  watch(request, { stopAfter = 1, timeoutMs = 5000 } = {}) {
    const call = this.stub.WatchChat(request);
    const messages = [];
    return new Promise((resolve) => {
      let ended = false;
      const finish = (error) => {
        if (ended) return;
        ended = true;
        clearTimeout(timer);
        call.cancel();
        resolve({ error, response: { messages } });
      };
      const timer = setTimeout(() => finish({ codeName: 'STILL_WAITING', details: `open after ${timeoutMs} ms` }), timeoutMs);
      call.on('data', (message) => {
        messages.push(message);
        if (messages.length >= stopAfter) finish(null);
      });
      call.on('error', (error) => finish(error));
      call.on('status', (s) => { if (s.code === grpc.status.OK) finish(null); });
    });
  }

  close() {
    this.stub.close();
  }
}

// GetTable for the tables added; NOT_FOUND for the others.
export async function startTablesStandIn(tables) {
  const server = new grpc.Server();
  server.addService(v1.MatchmakingService.service, {
    GetTable(call, callback) {
      const table = tables.get(call.request.table_id);
      if (!table) {
        callback({ code: grpc.status.NOT_FOUND, details: 'no such table' });
        return;
      }
      callback(null, { table: { table_id: call.request.table_id, ...table } });
    },
  });
  const port = await new Promise((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(),
      (error, bound) => (error ? reject(error) : resolve(bound)));
  });
  return { server, address: `127.0.0.1:${port}` };
}

// Starts the chat binary; resolves with its address once it listens.
export async function startChat(cluster, name, { redis, gameState, matchmaking, extra = [] }) {
  const binary = process.env.DRAUGHTS_CHAT_BIN;
  if (!binary || !fs.existsSync(binary)) throw new Error('DRAUGHTS_CHAT_BIN is not set or missing: build chat first');
  const args = [
    '--listen=127.0.0.1:0', '--metrics-port=-1', '--log-level=warn', '--drain=0s',
    `--redis=${redis}`, `--key-prefix=${cluster.keyPrefix}`,
    `--game-state=${gameState}`, `--matchmaking=${matchmaking}`,
    `--notices-stream=${cluster.keyPrefix}draughts:chat-notices`, ...extra,
  ];
  const child = cluster.launch(name, binary, args, {
    ASAN_OPTIONS: [process.env.ASAN_OPTIONS, 'detect_leaks=0'].filter(Boolean).join(':'),
  });
  child.isReplica = true;
  const port = await new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not listen within 60 s: ${cluster.log(child)}`)), 60000);
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /LISTENING (\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}: ${cluster.log(child)}`));
    });
  });
  child.stdout.resume();
  return `127.0.0.1:${port}`;
}

// ChatService rows of docs/API.md's error table: call -> Set of codes.
export function chatCodesFromApiTable() {
  const lines = fs.readFileSync(path.join(repoRoot, 'docs/API.md'), 'utf8').split('\n');
  const header = lines.findIndex((line) => /^\|\s*call\s*\|/.test(line));
  const cells = (line) => line.trim().replace(/^\||\|$/g, '').split('|').map((cell) => cell.trim());
  const codes = cells(lines[header]).slice(1);
  const table = new Map();
  let inChat = false;
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [call, ...marks] = cells(line);
    const section = /^\*\*(\w+)\*\*$/.exec(call);
    if (section) {
      inChat = section[1] === 'ChatService';
      continue;
    }
    if (inChat) table.set(call.replace(/`/g, ''), new Set(codes.filter((_, i) => marks[i] === 'x')));
  }
  return table;
}

// The "Errors:" codes of each ChatService call's comment in chat.proto.
export function chatCodesFromProto() {
  const source = fs.readFileSync(path.join(repoRoot, 'proto/draughts/v1/chat.proto'), 'utf8');
  const service = /service ChatService \{([\s\S]*?)\n\}/.exec(source);
  const calls = new Map();
  let comment = [];
  for (const line of service[1].split('\n')) {
    const text = line.trim();
    if (text.startsWith('//')) {
      comment.push(text);
      continue;
    }
    const rpc = /^rpc (\w+)\(/.exec(text);
    if (rpc) {
      const errors = comment.findIndex((c) => /^\/\/\s*Errors:/.test(c));
      calls.set(rpc[1], new Set(errors < 0 ? [] : comment.slice(errors + 1)
        .map((c) => /^\/\/ {3}([A-Z_]+):/.exec(c)?.[1]).filter(Boolean)));
    }
    comment = [];
  }
  return calls;
}

const documented = chatCodesFromApiTable();

// Asserts `answer` failed with `code`, a code docs/API.md lists for `call`,
// with a message matching `message` when given.
export function expectChatCode(call, answer, code, message) {
  assert.ok(documented.get(call)?.has(code), `docs/API.md does not list ${code} for ChatService.${call}`);
  const got = answer.error ? (answer.error.codeName ?? codeName(answer.error.code)) : 'OK';
  const details = answer.error?.details ?? '';
  assert.equal(got, code, `${call}: expected ${code}, got ${got}${details ? ` ("${details}")` : ''}`);
  if (message) assert.match(details, message, `${call} ${code}: the message should say what was wrong`);
}
