// The bench contract (lib/measuring/bench-contract.js): every bench in benchs/index.js keeps it, and
// a bench with its own option, probe and section (test/fixtures/sectioned-bench.js) is run and
// rendered by the machinery without lib/ knowing its name. No server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCHES } from '../../benchs/index.js';
import { benchContractProblems } from '../../lib/measuring/bench/bench-contract.js';
import { benchOptions, benchOptionSpecs, probesFailed, probesOf, runProbes } from '../../lib/measuring/run/catalogue.js';
import { resolveRun } from '../../lib/resolve-run.js';
import { renderRun, renderSections } from '../../lib/reporting/sections.js';
import fixture, { NAME } from '../fixtures/sectioned-bench.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const RESULTS_KEYS = ['schema', 'tool', 'startedAt', 'finishedAt', 'complete', 'stoppedBy', 'env', 'server', 'drivers', 'settings', 'benches', 'health', 'host', 'resolution'];

test('every bench in benchs/index.js keeps the bench contract', () => {
  for (const bench of BENCHES) assert.deepEqual(benchContractProblems(bench), [], bench.name);
  const names = BENCHES.map((b) => b.name);
  assert.equal(new Set(names).size, names.length, 'bench names are unique');
  const probes = probesOf(BENCHES);
  const keys = probes.map((p) => p.key);
  assert.equal(new Set(keys).size, keys.length, 'each probe has its own results key');
  for (const key of keys) assert.ok(!RESULTS_KEYS.includes(key), `probe key ${key} would overwrite the results' own ${key}`);
  const flags = benchOptionSpecs(BENCHES).map((o) => o.flags.split(' ')[0]);
  assert.equal(new Set(flags).size, flags.length, 'each bench option has its own flag');
});

test('the contract check names what a bench lacks', () => {
  assert.deepEqual(benchContractProblems(null), ['a bench is an object']);
  const broken = benchContractProblems({
    name: 'Bad Name', title: '', sql: 'DO 1', check: () => {}, section: 'text', statementsPerOp: 0,
    options: [{ flags: '--my-size <n>', description: 'x', key: 'size' }],
    probe: { key: 'results', run: () => {} },
  });
  assert.deepEqual(broken, [
    'name must match [a-z0-9_]+',
    'title must be a non-empty string',
    'plan(driver, ctx) must be a function',
    'section must be a function',
    'statementsPerOp must be a whole number',
    "options[0].key must be 'mySize', the name commander gives --my-size <n>",
    'probe.section must be a function',
  ]);
});

test('lib/ reaches the benches only through benchs/index.js, and names none of those with hooks of their own', () => {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.js')) files.push(join(dir, e.name));
    }
  };
  walk(join(root, 'lib'));
  const special = BENCHES.filter((b) => b.options || b.probe || b.section).map((b) => b.name);
  assert.ok(special.length >= 3, 'the benches with their own option, probe or section');
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const where = relative(root, file);
    for (const m of text.matchAll(/from '([^']*benchs\/[^']*)'/g)) assert.match(m[1], /benchs\/index\.js$/, `${where} imports ${m[1]}`);
    for (const name of special) assert.doesNotMatch(text, new RegExp(`\\b${name}\\b`), `${where} names the bench ${name}`);
  }
});

test('a bench from its own module alone: the fixture keeps the contract and is unknown to lib/', () => {
  assert.deepEqual(benchContractProblems(fixture), []);
  assert.ok(!BENCHES.includes(fixture));
  assert.deepEqual(benchOptions({}, [...BENCHES, fixture]).echoValue, 7);
  assert.deepEqual(benchOptions({ echoValue: 3 }, [fixture]), { echoValue: 3 });
});

test('its option, probe and section: resolved with the run, probed once, rendered by the one entry point', async () => {
  const plan = await resolveRun({ drivers: ['mysql2'], echoValue: 3 }, [fixture]);
  assert.equal(plan.benchOptions.echoValue, 3, 'handed to the bench as ctx.options');
  assert.equal(plan.settings.echoValue, 3, 'recorded in the settings, as the option asks');
  const results = {
    env: { node: 'v20', cpus: 2, cpuModel: 'cpu' }, server: null, complete: true,
    drivers: [{ name: 'a', version: '1' }, { name: 'b', version: '1' }], settings: { baseline: 'a', concurrency: 1, rounds: 2, time: 1 }, benches: [],
  };
  const context = { schema: 's', options: plan.benchOptions };
  // What the runner would add: the bench's rows, measured in the driver processes.
  let n = 0;
  const op = fixture.plan({ name: 'a' }, context).op({ query: async (sql, params) => { n++; return [{ n: params[0] }]; } });
  fixture.check(await op());
  results.benches.push({ name: NAME, title: fixture.title, sql: fixture.sql, results: [
    { driver: 'a', protocol: 'text', ok: true, status: 'ok', opsPerSec: 1000 + n, rme: 1, samples: 2, latency: { p50: 1, p99: 2 } },
    { driver: 'b', protocol: 'n/a', ok: false, status: 'n/a', error: 'not supported by driver: test' },
  ] });
  Object.assign(results, await runProbes([fixture], { drivers: [{ name: 'a' }, { name: 'b' }], admin: null, target: null, context, settings: results.settings }));
  assert.deepEqual(results.echo, { value: 3, drivers: [{ driver: 'a', status: 'ok' }, { driver: 'b', status: 'ok' }] });

  const sections = renderSections(results, [...BENCHES, fixture]);
  assert.equal(sections, `${NAME} · a 1001 · b n/a\necho probe · 3 · a ok, b ok\n`);
  assert.equal(renderSections(results), '', 'the registered benches have nothing to say about these results');
  const printed = renderRun(results, {}, [...BENCHES, fixture]);
  assert.ok(printed.endsWith(sections), 'the sections come after the main table');
  assert.match(printed, new RegExp(`${NAME}\\s.*a\\s.*text`));

  assert.equal(probesFailed(results, [fixture]), false);
  assert.equal(probesFailed({ ...results, echo: { error: 'cannot reach it' } }, [fixture]), true);
  assert.equal(probesFailed({ ...results, echo: { value: 3, drivers: [{ driver: 'a', status: 'failed' }] } }, [fixture]), true);
});

test('a failing probe is recorded, not thrown; an abort is thrown', async () => {
  const failing = { ...fixture, probe: { ...fixture.probe, run: async () => { throw new Error('no luck'); } } };
  assert.deepEqual(await runProbes([failing], { drivers: [], context: {} }), { echo: { error: 'no luck' } });

  const controller = new AbortController();
  controller.abort(new Error('interrupted'));
  const aborting = { ...fixture, probe: { ...fixture.probe, run: async ({ signal }) => signal.throwIfAborted() } };
  await assert.rejects(runProbes([aborting], { drivers: [], context: {}, signal: controller.signal }),
    /interrupted/);
});
