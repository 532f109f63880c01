#!/usr/bin/env node
// Whether the project's CI gate can fail and can pass (docs/ci.md, "The CI preset"), on this machine:
//   node scripts/ci-gate-acceptance.js [--sittings 3] [--out dir] [--preset-args '--ci'] [--rejudge]
// Each sitting runs the workflow's benchmark command three times, one after another: the base, an
// identical rerun, and a run whose mysql2 row does 30 % more work per operation (test/fixtures/
// slow-adapter.js, SLOW_ADAPTER_REPEAT_SHARE=0.3, labelled mysql2). Then it runs the workflow's own
// compare step, its flags read from .github/workflows/ci.yml, on base → rerun (should exit 0) and
// base → slower (should exit 1), and prints each run's duration and each compare's exit code.
// --rejudge: no runs, the files a previous call left in --out judged again.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'mysql-driver-bench.js');
const { values } = parseArgs({ options: { sittings: { type: 'string', default: '3' }, out: { type: 'string', default: join(root, 'results', 'ci-gate') }, 'preset-args': { type: 'string' }, rejudge: { type: 'boolean', default: false } } });
mkdirSync(values.out, { recursive: true });

/** The workflow's benchmark flags and compare flags, as .github/workflows/ci.yml writes them. */
function workflowFlags() {
  const text = readFileSync(join(root, '.github', 'workflows', 'ci.yml'), 'utf8');
  const bench = /npm run benchmark -- (--ci[^\n]*?) --json results\/timed\.json/.exec(text);
  const compare = /compare results\/timed-base\.json results\/timed\.json ([^>\n]*?) --markdown/.exec(text);
  if (!bench || !compare) throw new Error('the workflow\'s benchmark or compare step was not found in .github/workflows/ci.yml');
  return { bench: bench[1].split(/\s+/), compare: compare[1].split(/\s+/) };
}

const flags = workflowFlags();
const presetArgs = values['preset-args'] ? values['preset-args'].split(/\s+/) : flags.bench;
const slow = { drivers: `mysql,${join(root, 'test', 'fixtures', 'slow-adapter.js')},mariadb`, env: { SLOW_ADAPTER_REPEAT_SHARE: '0.3', SLOW_ADAPTER_NAME: 'mysql2' } };

function benchmark(file, { drivers, env = {} } = {}) {
  if (values.rejudge) return { seconds: NaN, resolution: JSON.parse(readFileSync(file, 'utf8')).resolution?.pct ?? null };
  const started = Date.now();
  const r = spawnSync(process.execPath, [bin, ...presetArgs, ...(drivers ? ['--drivers', drivers] : []), '--json', file, '--quiet'],
    { encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const seconds = (Date.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`benchmark ${file} exited ${r.status}: ${r.stderr.trim().split('\n').pop()}`);
  const results = JSON.parse(readFileSync(file, 'utf8'));
  return { seconds, resolution: results.resolution?.pct ?? null };
}

/** The workflow's compare step: its exit code; then the same comparison as JSON, for the rows' changes. */
function compare(base, next) {
  const step = spawnSync(process.execPath, [bin, 'compare', base, next, ...flags.compare], { encoding: 'utf8' });
  const json = spawnSync(process.execPath, [bin, 'compare', base, next, ...flags.compare, '--json', '-', '--quiet'], { encoding: 'utf8' });
  const rows = JSON.parse(json.stdout).rows.filter((r) => r.judged === 'relative' && r.ci);
  const pct = (x) => `${x > 0 ? '+' : ''}${x.toFixed(1)} %`;
  const range = (xs) => (xs.length ? `${pct(Math.min(...xs))} to ${pct(Math.max(...xs))}` : '-');
  const halves = rows.map((r) => (r.ci[1] - r.ci[0]) / 2).sort((a, b) => a - b);
  const called = rows.filter((r) => r.regression).map((r) => `${r.bench} · ${r.driver}`);
  return {
    code: step.status,
    text: `exit ${step.status}: mysql2 ${range(rows.filter((r) => r.driver === 'mysql2').map((r) => r.deltaPct))}, `
      + `the others ${range(rows.filter((r) => r.driver !== 'mysql2').map((r) => r.deltaPct))}, ± median ${halves[halves.length >> 1]?.toFixed(1)} %; `
      + `called: ${called.length ? called.join(', ') : 'none'}`,
  };
}

console.log(`benchmark: ${presetArgs.join(' ')}; compare: ${flags.compare.join(' ')}`);
const tally = { same: 0, slower: 0 };
for (let i = 1; i <= Number(values.sittings); i++) {
  const file = (name) => join(values.out, `${i}-${name}.json`);
  const base = benchmark(file('base'));
  const same = benchmark(file('same'));
  const slower = benchmark(file('slower'), slow);
  const c1 = compare(file('base'), file('same'));
  const c2 = compare(file('base'), file('slower'));
  tally.same += c1.code === 0;
  tally.slower += c2.code === 1;
  const took = (r) => (Number.isNaN(r.seconds) ? '-' : `${r.seconds.toFixed(0)} s`);
  console.log(`sitting ${i}: runs ${took(base)} / ${took(same)} / ${took(slower)}, `
    + `resolution ${base.resolution} / ${same.resolution} / ${slower.resolution} %`);
  console.log(`  base → rerun:  ${c1.text}`);
  console.log(`  base → slower: ${c2.text}`);
}
console.log(`identical reruns passed ${tally.same} of ${values.sittings}; 30 % slower mysql2 failed ${tally.slower} of ${values.sittings}`);
process.exitCode = tally.same === Number(values.sittings) && tally.slower === Number(values.sittings) ? 0 : 1;
