// A run's settings are resolved once from the command's options and then frozen: nothing below
// lib/run.js writes them, and nothing below it but the resolver reads the options.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { selectBenches } from '../../benchs/index.js';
import { resolveRun, settleSettings } from '../../lib/resolve-run.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('the resolved plan cannot be written, its nested objects neither', async () => {
  const plan = await resolveRun({ drivers: ['mysql2', 'mariadb'], rtt: 2, smoke: true }, selectBenches(['do']));
  assert.ok(Object.isFrozen(plan));
  assert.throws(() => { plan.settings.rounds = 99; }, TypeError);
  assert.throws(() => { plan.settings.windowS = 0.1; }, TypeError, 'a layer cannot add its own figure');
  assert.throws(() => { plan.settings.network.rttMs = 0; }, TypeError);
  assert.throws(() => { plan.settings.network.calibration = {}; }, TypeError);
  assert.throws(() => plan.settings.drivers.push('mysql'), TypeError);
  assert.throws(() => { plan.wake.mode = 'spin'; }, TypeError);
  assert.throws(() => { plan.output.out = '/tmp'; }, TypeError);
  assert.equal(plan.settings.rounds, 2);
  assert.equal(plan.settings.network.rttMs, 2);
});

test('what the run learns later makes new frozen settings; the plan stays as resolved', async () => {
  const plan = await resolveRun({ drivers: ['mysql2'], replay: true, smoke: true }, selectBenches(['do']));
  const placement = { mode: 'none', requested: 'none', client: null, server: null, harness: null, note: null };
  const settings = settleSettings(plan.settings, { baseline: 'mysql2', placement, replay: { sets: 1, captured: 0 }, schema: 'bench' });
  assert.equal(settings.baseline, 'mysql2');
  assert.equal(settings.replay.sets, 1);
  assert.equal(settings.replay.figure, 'client cost', 'the resolved replay settings kept');
  assert.equal(plan.settings.replay.sets, undefined);
  assert.equal(plan.settings.placement, undefined);
  assert.throws(() => { settings.replay.sets = 2; }, TypeError);
  assert.throws(() => { settings.placement.mode = 'split'; }, TypeError);
});

test('the resolver expands the drivers into the plan and leaves the options as given', async () => {
  const opts = { drivers: ['mysql2'], floor: true, runtimes: ['node'] };
  const given = structuredClone(opts);
  const plan = await resolveRun(opts, selectBenches(['do']));
  assert.deepEqual(plan.settings.drivers, ['mysql2', 'floor']);
  assert.deepEqual(opts, given);
});

/** Every .js file under lib/. */
function libFiles(dir = join(root, 'lib'), out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) libFiles(path, out);
    else if (name.endsWith('.js')) out.push(relative(root, path));
  }
  return out;
}

// The resolver (resolve-run.js) reads the options; lib/cli/ builds them from a command line, and
// run-rows.js from another command's request (bisect, ci-driver, record).
const READERS = new Set(['lib/resolve-run.js']);
const BUILDERS = new Set(['lib/run-rows.js']);

test('below lib/run.js only the resolver reads a command\'s options', () => {
  const run = readFileSync(join(root, 'lib/run.js'), 'utf8');
  assert.deepEqual(run.match(/.*\bopts\b.*/g).map((l) => l.trim()), [
    'export async function runBenchmark({ benches, opts, env, stdout, stderr, signal, variant = {}, command, from }) {',
    'const plan = await resolveRun(opts, benches);',
  ], 'run.js hands the options to the resolver and to nothing else');
  const readers = libFiles().filter((f) => !f.startsWith('lib/cli/') && f !== 'lib/run.js' && !READERS.has(f) && !BUILDERS.has(f))
    .filter((f) => /\bopts\b/.test(readFileSync(join(root, f), 'utf8')));
  assert.deepEqual(readers, []);
});
