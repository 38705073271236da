// The servers of the account screen's rated game: every service of a table
// (table_servers.mjs: Redis, game_state, matchmaking, clock, bot, chat, the
// gateway) plus a PostgreSQL database for accounts and ratings (a fresh one
// on DRAUGHTS_TEST_PG's server when set, else a private server from initdb)
// and the rating binary; the gateway is started again with --pg and --rating.
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import {freePort} from './servers.mjs';
import {TableServers} from './table_servers.mjs';

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

async function waitFor(what, check, child, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}; log: ${child.logFile}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not start within ${timeoutMs} ms; log: ${child.logFile}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export class AccountServers extends TableServers {
  async startAll() {
    await super.startAll();
    const shared = process.env.DRAUGHTS_TEST_PG || '';
    if (shared) {
      this.pgHost = conninfoField(shared, 'host') || '127.0.0.1';
      this.pgPort = conninfoField(shared, 'port') || '5432';
    } else {
      this.pgHost = '127.0.0.1';
      this.pgPort = String(await freePort());
      const data = path.join(this.dir, 'pg');
      fs.mkdirSync(data);
      fs.chmodSync(this.dir, 0o755);
      if (process.getuid() === 0) spawnSync('chown', ['postgres', data]);
      run(path.join(PG_BIN, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'], 'initdb');
      run(path.join(PG_BIN, 'pg_ctl'), ['-D', data, '-l', path.join(data, 'server.log'), '-w', '-t', '60', '-o',
        `-p ${this.pgPort} -k ${data} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start'], 'pg_ctl start');
      this.pgData = data;
    }
    this.database = `draughts_e2e_account_${process.pid}`;
    run(path.join(PG_BIN, 'createdb'), ['-h', this.pgHost, '-p', this.pgPort, '-U', 'postgres', this.database], 'createdb');
    const conninfo = `host=${this.pgHost} port=${this.pgPort} dbname=${this.database} user=postgres connect_timeout=5`;

    const gatewayArgs = this.gateway.spawnargs.slice(1);
    const redis = gatewayArgs.find((f) => f.startsWith('--redis='));
    const rating = await this.grpc('rating', 'DRAUGHTS_RATING_BIN', [redis, `--pg=${conninfo}`, '--consumer-name=e2e']);

    // The gateway again, with accounts and the rating service.
    const old = this.gateway;
    const exited = new Promise((resolve) => old.once('exit', resolve));
    old.kill('SIGTERM');
    await exited;
    this.children = this.children.filter((c) => c !== old);
    this.gateway = this.launch('gateway', old.spawnargs[0], [
      ...gatewayArgs, `--pg=${conninfo}`, `--rating=${rating}`, '--password-opslimit=1', '--password-memlimit-kib=8192',
    ]);
    await waitFor('gateway', async () => (await fetch(`${this.baseUrl}/`)).ok, this.gateway);
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
