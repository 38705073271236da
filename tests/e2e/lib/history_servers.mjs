// The servers of the ratings and history tests: those of servers.mjs plus a
// PostgreSQL database (a fresh one on DRAUGHTS_TEST_PG's server when set,
// else a private server from initdb) for accounts and the rating service,
// and the rating binary consuming game_state's results stream. The gateway
// is started with --pg and --rating.
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import {freePort, repoRoot, Servers} from './servers.mjs';

const PG_BIN = process.env.DRAUGHTS_TEST_PG_BIN || '/usr/lib/postgresql/15/bin';

function run(command, args, what) {
  const asPostgres = process.getuid && process.getuid() === 0;
  const result = asPostgres
    ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], {encoding: 'utf8'})
    : spawnSync(command, args, {encoding: 'utf8'});
  if (result.status !== 0) throw new Error(`${what} failed: ${result.stderr || result.stdout}`);
  return result.stdout;
}

function conninfoField(conninfo, name) {
  const m = new RegExp(`(?:^|\\s)${name}=(\\S+)`).exec(conninfo);
  return m ? m[1] : '';
}

export class HistoryServers extends Servers {
  async start() {
    this.database = `e2e_history_${process.pid}_${Date.now() % 100000}`;
    const shared = process.env.DRAUGHTS_TEST_PG || '';
    await super.start();
    if (shared) {
      this.pgHost = conninfoField(shared, 'host') || '127.0.0.1';
      this.pgPort = conninfoField(shared, 'port') || '5432';
    } else {
      // A private server in this run's temp dir.
      this.pgPort = String(await freePort());
      this.pgHost = '127.0.0.1';
      const data = path.join(this.dir, 'pg');
      fs.mkdirSync(data);
      fs.chmodSync(this.dir, 0o755);
      if (process.getuid() === 0) spawnSync('chown', ['postgres', data]);
      run(path.join(PG_BIN, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'], 'initdb');
      run(path.join(PG_BIN, 'pg_ctl'), ['-D', data, '-l', path.join(data, 'server.log'), '-w', '-t', '60', '-o',
        `-p ${this.pgPort} -k ${data} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start'], 'pg_ctl start');
      this.pgData = data;
    }
    run(path.join(PG_BIN, 'createdb'), ['-h', this.pgHost, '-p', this.pgPort, '-U', 'postgres', this.database], 'createdb');
    const conninfo = `host=${this.pgHost} port=${this.pgPort} dbname=${this.database} user=postgres connect_timeout=5`;

    const buildDir = path.resolve(repoRoot, process.env.DRAUGHTS_BUILD_DIR || 'build/asan');
    const rating = process.env.DRAUGHTS_RATING_BIN || path.join(buildDir, 'services/rating/rating');
    if (!fs.existsSync(rating)) throw new Error(`rating binary not found at ${rating}; build it (ninja rating)`);
    this.ratingPort = await freePort();
    const redisAddr = this.gatewayCommand[1].find((f) => f.startsWith('--redis=')).slice('--redis='.length);
    const sanitizerEnv = {ASAN_OPTIONS: process.env.ASAN_OPTIONS || 'detect_leaks=0'};
    this.launch('rating', rating, [
      `--listen=127.0.0.1:${this.ratingPort}`, '--metrics-port=-1', `--redis=${redisAddr}`, `--pg=${conninfo}`,
      '--consumer-name=e2e', '--log-level=warn',
    ], sanitizerEnv);
    const grpcFlag = this.gatewayCommand[1].find((f) => f.startsWith('--game-state='));
    this.gameStateAddress = grpcFlag.slice('--game-state='.length);
    this.ratingAddress = `127.0.0.1:${this.ratingPort}`;

    // The gateway again, with accounts and the rating service.
    const old = this.gateway;
    const exited = new Promise((resolve) => old.once('exit', resolve));
    old.kill('SIGTERM');
    await exited;
    this.children = this.children.filter((c) => c !== old);
    this.gatewayCommand[1] = [...this.gatewayCommand[1], `--pg=${conninfo}`, `--rating=${this.ratingAddress}`,
      '--password-opslimit=1', '--password-memlimit-kib=8192'];
    await this.startGateway();
    return this;
  }

  async stop(options = {}) {
    await super.stop({keepLogs: true});
    try {
      run(path.join(PG_BIN, 'dropdb'), ['-h', this.pgHost, '-p', this.pgPort, '-U', 'postgres', '--if-exists', this.database], 'dropdb');
    } catch {
      // a private server goes with its directory
    }
    if (this.pgData) {
      try {
        run(path.join(PG_BIN, 'pg_ctl'), ['-D', this.pgData, '-m', 'fast', '-w', 'stop'], 'pg_ctl stop');
      } catch {
        // already down
      }
    }
    if (this.dir && !options.keepLogs) fs.rmSync(this.dir, {recursive: true, force: true});
  }
}
