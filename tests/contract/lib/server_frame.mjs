// web_socket.proto's ServerFrame (protobufjs, loaded at run time) and a
// check that a frame is its protobuf JSON, shared by the table socket tests.
import path from 'node:path';
import protobuf from 'protobufjs';
import { repoRoot } from './game_client.mjs';

const protoDir = path.join(repoRoot, 'proto');
// web_socket.proto through protobufjs, to check every frame against it.
const root = new protobuf.Root();
root.resolvePath = (origin, target) => (target.startsWith('google/protobuf/') ? target : path.join(protoDir, target));
root.loadSync('draughts/v1/web_socket.proto');
root.resolveAll();
export const ServerFrame = root.lookupType('draughts.v1.ServerFrame');

// Whether `value` is `type`'s protobuf JSON: every key a field's JSON name,
// every value of the field's type (enums by name, int64 as strings,
// Timestamp and Duration as strings), recursively. Returns the problems.
export function checkJson(type, value, where = type.name) {
  const problems = [];
  if (type.fullName === '.google.protobuf.Timestamp') {
    if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) problems.push(`${where}: not a timestamp`);
    return problems;
  }
  if (type.fullName === '.google.protobuf.Duration') {
    if (typeof value !== 'string' || !/^-?\d+(\.\d+)?s$/.test(value)) problems.push(`${where}: not a duration`);
    return problems;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${where}: not an object`];
  const byJsonName = new Map(type.fieldsArray.map((f) => [f.name.replace(/_([a-z])/g, (_, c) => c.toUpperCase()), f]));
  for (const [key, fieldValue] of Object.entries(value)) {
    const field = byJsonName.get(key);
    if (!field) { problems.push(`${where}: unknown field ${key}`); continue; }
    field.resolve();
    const values = field.repeated ? fieldValue : [fieldValue];
    if (field.repeated && !Array.isArray(fieldValue)) { problems.push(`${where}.${key}: not a list`); continue; }
    for (const item of values) {
      const at = `${where}.${key}`;
      if (field.resolvedType instanceof protobuf.Type) problems.push(...checkJson(field.resolvedType, item, at));
      else if (field.resolvedType instanceof protobuf.Enum) {
        if (!(item in field.resolvedType.values)) problems.push(`${at}: ${item} is not a ${field.resolvedType.name}`);
      } else if (['int64', 'uint64', 'sint64', 'fixed64'].includes(field.type)) {
        if (typeof item !== 'string' || !/^-?\d+$/.test(item)) problems.push(`${at}: int64 must be a string`);
      } else if (['int32', 'uint32', 'sint32', 'double', 'float'].includes(field.type)) {
        if (typeof item !== 'number') problems.push(`${at}: not a number`);
      } else if (field.type === 'bool') {
        if (typeof item !== 'boolean') problems.push(`${at}: not a bool`);
      } else if (field.type === 'string') {
        if (typeof item !== 'string') problems.push(`${at}: not a string`);
      }
    }
  }
  // A oneof holds one member at most.
  for (const oneof of type.oneofsArray) {
    const set = oneof.fieldsArray.filter((f) => f.name.replace(/_([a-z])/g, (_, c) => c.toUpperCase()) in value);
    if (set.length > 1) problems.push(`${where}: two members of ${oneof.name}`);
  }
  return problems;
}

