// Writes the Prometheus configuration of check_prometheus.sh: the jobs and
// rule files of deploy/prometheus/prometheus.yml, each job scraping the live
// test instance of its service (jobs whose service is not running dropped),
// every second so the check is quick.
//   node write_test_prometheus_config.mjs <repo root> <out.yml> <job>=<host:port>...
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {parse, stringify} from 'yaml';

const [root, out, ...pairs] = process.argv.slice(2);
const live = new Map(pairs.map((p) => p.split('=')));
const config = parse(readFileSync(join(root, 'deploy/prometheus/prometheus.yml'), 'utf8'));
config.global = {...config.global, scrape_interval: '1s', evaluation_interval: '1s'};
config.rule_files = config.rule_files.map((f) => join(root, 'deploy/prometheus', f));
config.scrape_configs = config.scrape_configs
                            .filter((job) => live.has(job.job_name))
                            .map((job) => ({...job, static_configs: [{targets: [live.get(job.job_name)]}]}));
for (const job of live.keys()) {
  if (!config.scrape_configs.some((j) => j.job_name === job)) {
    console.error(`deploy/prometheus/prometheus.yml has no job for the service ${job}`);
    process.exit(1);
  }
}
writeFileSync(out, stringify(config));
