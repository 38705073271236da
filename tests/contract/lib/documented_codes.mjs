// What the contract says each GameService call may answer, read from the
// two places that document it: the "Error codes per call" table of
// docs/API.md and the "Errors:" list in each call's comment in game.proto.
// Tests assert codes through expectCode, which refuses a code the table does
// not list for the call, so tests and docs cannot drift apart.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, status, codeName } from './game_client.mjs';

export const apiMdPath = path.join(repoRoot, 'docs/API.md');
export const gameProtoPath = path.join(repoRoot, 'proto/draughts/v1/game.proto');

// Map call -> Set of code names marked x in the table's rows for `service`
// (GameService unless named).
export function codesFromApiTable(markdown = fs.readFileSync(apiMdPath, 'utf8'), service = 'GameService') {
  const lines = markdown.split('\n');
  const header = lines.findIndex((line) => /^\|\s*call\s*\|/.test(line));
  if (header < 0) throw new Error('docs/API.md has no "| call | ..." error code table');
  const cells = (line) => line.trim().replace(/^\||\|$/g, '').split('|').map((cell) => cell.trim());
  const codes = cells(lines[header]).slice(1);
  const table = new Map();
  let inService = false;
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [call, ...marks] = cells(line);
    const section = /^\*\*(\w+)\*\*$/.exec(call);
    if (section) {
      inService = section[1] === service;
      continue;
    }
    if (!inService) continue;
    const name = call.replace(/`/g, '');
    table.set(name, new Set(codes.filter((_, i) => marks[i] === 'x')));
  }
  if (table.size === 0) throw new Error(`docs/API.md: no ${service} rows in the error code table`);
  return table;
}

// Map call -> Set of code names listed under "Errors:" in its comment, for
// `service` in the proto file `protoFile` (under proto/draughts/v1).
export function codesFromProto(protoFile, service) {
  const source = fs.readFileSync(path.join(repoRoot, 'proto/draughts/v1', protoFile), 'utf8');
  return codesFromServiceSource(source, service);
}

export function codesFromGameProto(source = fs.readFileSync(gameProtoPath, 'utf8')) {
  return codesFromServiceSource(source, 'GameService');
}

function codesFromServiceSource(source, serviceName) {
  const service = new RegExp(`service ${serviceName} \\{([\\s\\S]*?)\\n\\}`).exec(source);
  if (!service) throw new Error(`no service ${serviceName} in the proto`);
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
      const listed = errors < 0 ? [] : comment.slice(errors + 1)
        .map((c) => /^\/\/ {3}([A-Z_]+):/.exec(c)?.[1]).filter(Boolean);
      calls.set(rpc[1], new Set(listed));
    }
    comment = [];
  }
  return calls;
}

const documented = codesFromApiTable();

export function documentedCodes(call) {
  const codes = documented.get(call);
  if (!codes) throw new Error(`docs/API.md's error code table has no row for GameService.${call}`);
  return codes;
}

// Asserts that `answer` ({ error, response } from GameClient.call) failed
// with `code` (a name, e.g. 'ABORTED'), that docs/API.md lists that code
// for `call`, and, if given, that the message matches `message`.
export function expectCode(call, answer, code, message) {
  assert.ok(documentedCodes(call).has(code),
    `the test expects ${code} from ${call}, which docs/API.md does not list for it`);
  const got = answer.error ? (answer.error.codeName ?? codeName(answer.error.code)) : 'OK';
  const details = answer.error?.details ?? '';
  assert.equal(got, code, `${call}: expected ${code}, got ${got}${details ? ` ("${details}")` : ''}`);
  if (message) assert.match(details, message, `${call} ${code}: the message should say what was wrong`);
}

export function expectOk(call, answer) {
  const got = answer.error
    ? `${answer.error.codeName ?? codeName(answer.error.code)} ("${answer.error.details}")` : 'OK';
  assert.equal(got, 'OK', `${call}: expected OK, got ${got}`);
  return answer.response;
}

export { status };
