// Two renderings of the same overlay hold the same objects, whatever their
// order and YAML layout: Debian's kubectl 1.20 (kustomize v2.0.3) and a
// recent kubectl must deploy the same thing. Secret data compares decoded
// (old kustomize folds long base64 values over lines).
//   node compare_renders.mjs <first.yaml> <second.yaml>
import {readFileSync} from 'node:fs';
import {parseAllDocuments} from 'yaml';

const [first, second] = process.argv.slice(2);
if (!first || !second) {
  console.error('usage: compare_renders.mjs <first.yaml> <second.yaml>');
  process.exit(2);
}

function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical(value[key])]));
  }
  return value;
}

function objects(file) {
  const byKey = new Map();
  for (const document of parseAllDocuments(readFileSync(file, 'utf8'))) {
    const object = document.toJS();
    if (!object) continue;
    if (object.kind === 'Secret' && object.data) {
      for (const key of Object.keys(object.data)) {
        object.data[key] = Buffer.from(object.data[key].replace(/\s/g, ''), 'base64').toString('utf8');
      }
    }
    const {apiVersion, kind, metadata} = object;
    byKey.set(`${apiVersion} ${kind} ${metadata.namespace ?? ''}/${metadata.name}`,
              JSON.stringify(canonical(object)));
  }
  return byKey;
}

const a = objects(first);
const b = objects(second);
const findings = [];
for (const [key, text] of a) {
  if (!b.has(key)) findings.push(`only in ${first}: ${key}`);
  else if (b.get(key) !== text) findings.push(`differs: ${key}`);
}
for (const key of b.keys()) {
  if (!a.has(key)) findings.push(`only in ${second}: ${key}`);
}
for (const finding of findings) console.log(finding);
console.log(`${a.size} and ${b.size} objects, ${findings.length} differences`);
process.exit(findings.length === 0 ? 0 : 1);
