// The processes a rating contract test talks to: a private redis-server, a
// fresh PostgreSQL database on the server of DRAUGHTS_TEST_PG (created with
// createdb, dropped at the end) and the rating binary on both; plus a
// RatingService client (@grpc/grpc-js, .proto files loaded at run time).
// Everything started here is stopped by stop(), whatever happened.
//
// DRAUGHTS_RATING_BIN, DRAUGHTS_REDIS_SERVER: binaries (set by ctest);
// DRAUGHTS_TEST_PG, DRAUGHTS_TEST_PG_BIN: the PostgreSQL of scripts/test.
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import { freePort } from './cluster.mjs';
import { repoRoot, codeName } from './game_client.mjs';

function required(variable) {
  const value = process.env[variable];
  if (!value) throw new Error(`environment variable ${variable} is not set (scripts/test and ctest set it)`);
  return value;
}

// host, port, user of a libpq keyword=value string.
function pgParams(conninfo) {
  const params = {};
  for (const [, key, value] of conninfo.matchAll(/(\w+)=('[^']*'|\S+)/g)) params[key] = value.replace(/^'|'$/g, '');
  return params;
}

const packageDefinition = protoLoader.loadSync(['draughts/v1/rating.proto'], {
  includeDirs: [path.join(repoRoot, 'proto')],
  keepCase: true,
  enums: String,
  longs: String,
  defaults: true,
  oneofs: true,
});
const v1 = grpc.loadPackageDefinition(packageDefinition).draughts.v1;

export class RatingClient {
  constructor(address) {
    this.stub = new v1.RatingService(address, grpc.credentials.createInsecure());
  }

  // Resolves with { error, response }; never rejects.
  call(method, request, deadlineMs = 10000) {
    return new Promise((resolve) => {
      this.stub[method](request, { deadline: Date.now() + deadlineMs }, (error, response) => resolve({ error, response }));
    });
  }

  async ok(method, request) {
    const { error, response } = await this.call(method, request);
    if (error) throw new Error(`${method} failed: ${codeName(error.code)}: ${error.details}`);
    return response;
  }

  close() {
    this.stub.close();
  }
}

export class RatingSetup {
  constructor() {
    this.ratingBinary = required('DRAUGHTS_RATING_BIN');
    this.redisServerBinary = required('DRAUGHTS_REDIS_SERVER');
    this.pg = pgParams(required('DRAUGHTS_TEST_PG'));
    this.pgBin = process.env.DRAUGHTS_TEST_PG_BIN || '/usr/lib/postgresql/15/bin';
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'draughts-rating-contract-'));
    this.database = `rating_contract_${randomBytes(6).toString('hex')}`;
    this.children = [];
  }

  pgTool(tool, args) {
    return execFileSync(path.join(this.pgBin, tool),
      ['-h', this.pg.host, '-p', this.pg.port, '-U', this.pg.user, ...args], { encoding: 'utf8' });
  }

  sql(statement) {
    return this.pgTool('psql', ['-d', this.pg.dbname, '-v', 'ON_ERROR_STOP=1', '-Atc', statement]);
  }

  launch(name, command, args) {
    const logFile = path.join(this.dir, `${name}.log`);
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', fs.openSync(logFile, 'a')],
      env: { ...process.env, ASAN_OPTIONS: [process.env.ASAN_OPTIONS, 'detect_leaks=0'].filter(Boolean).join(':') },
    });
    child.logFile = logFile;
    this.children.push(child);
    return child;
  }

  log(child) {
    try { return fs.readFileSync(child.logFile, 'utf8').slice(-4000); } catch { return ''; }
  }

  // Starts Redis, creates the database, starts the rating binary; resolves
  // with its address.
  async start() {
    const redisPort = await freePort();
    this.launch('redis', this.redisServerBinary, ['--port', String(redisPort), '--bind', '127.0.0.1',
      '--dir', this.dir, '--save', '', '--appendonly', 'no']);
    this.pgTool('createdb', [this.database]);
    this.created = true;
    const conninfo = `host=${this.pg.host} port=${this.pg.port} user=${this.pg.user} dbname=${this.database} connect_timeout=5`;
    const rating = this.launch('rating', this.ratingBinary, ['--listen=127.0.0.1:0', '--metrics-port=-1',
      '--log-level=warn', '--drain=0s', `--redis=127.0.0.1:${redisPort}`, `--pg=${conninfo}`,
      `--results-stream=contract-${randomBytes(4).toString('hex')}`]);
    this.rating = rating;
    const port = await new Promise((resolve, reject) => {
      let stdout = '';
      const timer = setTimeout(() => reject(new Error(`rating did not print LISTENING within 60 s: ${this.log(rating)}`)), 60000);
      rating.stdout.on('data', (chunk) => {
        stdout += chunk;
        const match = /LISTENING (\d+)/.exec(stdout);
        if (match) { clearTimeout(timer); resolve(Number(match[1])); }
      });
      rating.once('exit', (code) => { clearTimeout(timer); reject(new Error(`rating exited with ${code}: ${this.log(rating)}`)); });
    });
    rating.stdout.resume();
    return `127.0.0.1:${port}`;
  }

  // The database stops accepting the service's connections and ends the
  // open ones: PostgreSQL is "down" for the service.
  takeDatabaseDown() {
    this.sql(`ALTER DATABASE ${this.database} ALLOW_CONNECTIONS false`);
    this.sql(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '${this.database}'`);
  }

  async stop() {
    for (const child of this.children.reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15000);
      await exited;
      clearTimeout(killer);
    }
    if (this.created) {
      this.sql(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '${this.database}'`);
      this.pgTool('dropdb', ['--if-exists', this.database]);
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
