// The live half of check_prometheus.sh, against a running Prometheus and
// the services it scrapes:
//   node check_live.mjs <repo root> <prometheus url> <job>=<host:port>...
// - every target is up;
// - every alert rule of deploy/prometheus/rules is loaded and evaluates;
// - every metric named in a dashboard query is exported by a live scrape
//   of a service the query selects (job="..." or job=~"a|b"); a query whose
//   services are not running here is skipped and named.
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {parse} from 'yaml';

const [root, prometheus, ...pairs] = process.argv.slice(2);
const live = new Map(pairs.map((p) => p.split('=')));
const failures = [];
let passed = 0;
let skipped = 0;
const check = (ok, message) => (ok ? passed++ : failures.push(message));

async function api(path) {
  const response = await fetch(`${prometheus}${path}`);
  const body = await response.json();
  if (body.status !== 'success') throw new Error(`${path}: ${JSON.stringify(body)}`);
  return body.data;
}

// Polls until `done(value)` or the deadline; returns the last value.
async function poll(read, done, seconds) {
  const deadline = Date.now() + seconds * 1000;
  let value;
  for (;;) {
    try {
      value = await read();
      if (done(value)) return value;
    } catch (error) {
      value = error;
    }
    if (Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

// ---- targets ------------------------------------------------------------
const targets = await poll(() => api('/api/v1/targets'),
                           (d) => d.activeTargets?.length === live.size &&
                                  d.activeTargets.every((t) => t.health === 'up'),
                           60);
for (const job of live.keys()) {
  const target = targets.activeTargets?.find((t) => t.labels.job === job);
  check(target?.health === 'up', `target ${job}: ${target ? `${target.health} ${target.lastError}` : 'missing'}`);
}
console.log(`targets up: ${[...live.keys()].join(', ')}`);

// ---- alert rules -------------------------------------------------------------
const ruleDir = join(root, 'deploy/prometheus/rules');
const wanted = readdirSync(ruleDir)
                   .filter((f) => f.endsWith('.yml'))
                   .flatMap((f) => parse(readFileSync(join(ruleDir, f), 'utf8')).groups)
                   .flatMap((g) => g.rules.map((r) => r.alert ?? r.record));
const rules = await poll(() => api('/api/v1/rules'),
                         (d) => d.groups.flatMap((g) => g.rules).filter(
                                    (r) => r.health === 'ok' && r.lastEvaluation &&
                                           !r.lastEvaluation.startsWith('0001')).length === wanted.length,
                         30);
const loaded = new Map(rules.groups?.flatMap((g) => g.rules).map((r) => [r.name, r]) ?? []);
for (const name of wanted) {
  const rule = loaded.get(name);
  check(rule?.health === 'ok', `rule ${name}: ${rule ? `${rule.health} ${rule.lastError ?? ''}` : 'not loaded'}`);
}
console.log(`alert rules loaded and evaluated: ${wanted.length}`);

// ---- dashboard metrics ---------------------------------------------------------
// prometheus-cpp exports a labelled family only once it has a sample, so a
// little traffic first: through the gateway (HTTP routes, its calls to
// game_state and rating, their server-side RPC metrics).
const gateway = process.env.DRAUGHTS_GATEWAY_ADDR;
if (gateway) {
  const unknownGame = 'a'.repeat(26);
  for (const path of ['/healthz', '/api/variants', `/api/games/${unknownGame}`, `/api/games/${unknownGame}/pdn`]) {
    const response = await fetch(`http://${gateway}${path}`);
    await response.arrayBuffer();
    console.log(`traffic: GET ${path} -> ${response.status}`);
  }
}

// A family that only an event this short run cannot cause would export
// (a game ending, a retried call) passes if the service's own code or the
// platform declares it by that exact name; it is listed.
function declaredInSource(job, metric) {
  const family = metric.replace(/_(bucket|sum|count)$/, '');
  const dirs = [join(root, 'libs/platform'), join(root, 'services', job)];
  return dirs.some((dir) => readdirSync(dir).some(
      (f) => f.endsWith('.cc') && readFileSync(join(dir, f), 'utf8').includes(`"${family}"`)));
}
// The metric names a live scrape of each job exports (HELP/TYPE lines count:
// a family with no sample yet is exported, and histogram families export
// their _bucket, _sum and _count series).
const exported = new Map();
for (const [job, address] of live) {
  const text = await (await fetch(`http://${address}/metrics`)).text();
  const names = new Set(['up']);
  for (const line of text.split('\n')) {
    const type = line.match(/^# TYPE (\S+) (\S+)/);
    if (type) {
      names.add(type[1]);
      if (type[2] === 'histogram' || type[2] === 'summary') {
        for (const suffix of ['_bucket', '_sum', '_count']) names.add(type[1] + suffix);
      }
    } else if (/^[a-zA-Z_]/.test(line)) {
      names.add(line.match(/^[a-zA-Z_:][a-zA-Z0-9_:]*/)[0]);
    }
  }
  exported.set(job, names);
}

function jobsOf(expr) {
  const jobs = new Set();
  for (const m of expr.matchAll(/job\s*=\s*"([^"]*)"/g)) jobs.add(m[1]);
  for (const m of expr.matchAll(/job\s*=~\s*"([^"]*)"/g)) m[1].split('|').forEach((j) => jobs.add(j));
  return [...jobs];
}

const dashboardDir = join(root, 'deploy/grafana/dashboards');
for (const file of readdirSync(dashboardDir).filter((f) => f.endsWith('.json'))) {
  const dashboard = JSON.parse(readFileSync(join(dashboardDir, file), 'utf8'));
  for (const panel of dashboard.panels ?? []) {
    for (const target of panel.targets ?? []) {
      const where = `${file} "${panel.title}"`;
      const jobs = jobsOf(target.expr);
      if (jobs.length === 0) {
        failures.push(`${where}: the query selects no job: ${target.expr}`);
        continue;
      }
      const running = jobs.filter((j) => live.has(j));
      const metrics = new Set(target.expr.match(/\b(draughts_[a-z0-9_]+|up)\b/g) ?? []);
      for (const metric of metrics) {
        if (running.length === 0) {
          console.log(`skip: ${where}: ${metric} (${jobs.join(', ')} not running here)`);
          skipped++;
          continue;
        }
        if (running.some((j) => exported.get(j).has(metric))) {
          passed++;
        } else if (running.some((j) => declaredInSource(j, metric))) {
          console.log(`no sample yet: ${where}: ${metric} (declared in the source of ${running.join(', ')})`);
          passed++;
        } else {
          failures.push(`${where}: ${metric} is exported by none of ${running.join(', ')}`);
        }
      }
    }
  }
}

for (const failure of failures) console.log(`FAIL ${failure}`);
console.log(`prometheus checks: ${passed} passed, ${failures.length} failed, ${skipped} skipped`);
process.exit(failures.length === 0 ? 0 : 1);
