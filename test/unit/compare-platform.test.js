// compare of two count runs on their platforms (settings.count.platform, results/compare-counts.js):
// another CPU, kernel, glibc or harness commit is said in one line and widens the noise floor to the
// cross-host spread; another Node or Valgrind is refused (exit 2, one line); a run that recorded no
// platform is compared as before, its platform unknown. From the recorded count-instructions fixture.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CROSS_HARNESS_FLOOR_PCT, CROSS_HOST_FLOOR_PCT, platformChange } from '../../lib/results/compare-counts.js';
import { EXIT } from '../../lib/common/errors.js';
import { main } from '../../lib/cli/index.js';

const FIXTURE = JSON.parse(readFileSync(new URL('../fixtures/results/count-instructions.json', import.meta.url), 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'mdb-compare-platform-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const sink = () => {
  let text = '';
  return { write: (s) => { text += s; return true; }, get text() { return text; }, isTTY: false };
};

const EPYC = {
  cpu: { vendor: 'AuthenticAMD', model: 'AMD EPYC 7B13' }, kernel: '6.1.0-28-cloud-amd64', glibc: '2.36',
  node: { version: 'v20.20.2', arch: 'x64', build: 'release gcc' }, harness: { version: '0.1.0', commit: 'fbfff3a79cb50505ef4e809f27b70bd86cbae919' },
};
const XEON = { ...EPYC, cpu: { vendor: 'GenuineIntel', model: 'Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz' }, glibc: '2.39' };

/** The fixture's run, counted on `platform` (none: as recorded before platforms were), mysql2's `do` at `perOp`, saved as `name`. */
function saved(name, { platform, perOp = 25590, valgrind, threadPool, moduleLoading } = {}) {
  const r = structuredClone(FIXTURE);
  if (platform) r.settings.count.platform = platform;
  if (valgrind) r.settings.count.valgrind = valgrind;
  if (threadPool) r.settings.count.threadPool = threadPool;
  if (moduleLoading) r.settings.count.moduleLoading = moduleLoading;
  r.benches[0].results[0].instructionsPerOp = perOp;
  writeFileSync(join(dir, name), JSON.stringify(r));
  return join(dir, name);
}

async function compare(base, next, ...flags) {
  const stdout = sink();
  const stderr = sink();
  const code = await main(['compare', base, next, ...flags], { stdout, stderr });
  return { code, out: stdout.text, err: stderr.text };
}

// mysql2's do: 25,590 → 25,641 instructions/op, +0.199 % (more work).
const MORE = 25641;

test('the same platform: compared as before, the 0.2 % Δ called beyond the count\'s floor, no platform line', async () => {
  const { code, out } = await compare(saved('a.json', { platform: EPYC }), saved('b.json', { platform: EPYC, perOp: MORE }), '--json', '-');
  assert.equal(code, EXIT.OK);
  const c = JSON.parse(out);
  assert.deepEqual(c.platform, { differs: [], floorPct: 0, note: null });
  assert.equal(c.floorPct, 0.05);
  assert.deepEqual([c.rows[0].changePct, c.rows[0].beyondFloor], [0.199, true]);
  assert.doesNotMatch((await compare(join(dir, 'a.json'), join(dir, 'b.json'))).out, /platform/);
});

test('another CPU and glibc: one line saying what differs, the floor widened to the cross-host spread, a 0.2 % Δ not called', async () => {
  const base = saved('epyc.json', { platform: EPYC });
  const next = saved('xeon.json', { platform: { ...XEON, harness: EPYC.harness }, perOp: MORE });
  const { code, out } = await compare(base, next, '--threshold', '0.1');
  assert.equal(code, EXIT.OK, 'not a regression: within the widened floor');
  const lines = out.split('\n').filter((l) => /platform/.test(l));
  assert.deepEqual(lines.map((l) => l.trim()), ['platform differs: CPU AMD EPYC 7B13 → Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz; glibc 2.36 → 2.39: '
    + `noise floor ${CROSS_HOST_FLOOR_PCT} % (the cross-host spread)`]);
  assert.match(out, /│ mysql2 +│ +25,590 │ +25,641 │ +\+0\.20 % │ ~ │/);
  assert.match(out, /noise floor \(±0\.3 %\)/);
  const c = JSON.parse((await compare(base, next, '--json', '-')).out);
  assert.deepEqual([c.floorPct, c.rows[0].floorPct, c.rows[0].beyondFloor], [0.3, 0.3, false]);
  // Another commit of the harness: its own, wider floor (a 0.5 % Δ not called).
  const harness = saved('harness.json', { platform: { ...EPYC, harness: { version: '0.1.0', commit: 'a79af4d0000000000000000000000000000000000' } }, perOp: Math.round(25590 * 1.005) });
  const h = JSON.parse((await compare(base, harness, '--json', '-')).out);
  assert.deepEqual([h.floorPct, h.rows[0].beyondFloor, h.platform.note], [CROSS_HARNESS_FLOOR_PCT, false,
    `platform differs: harness 0.1.0 (fbfff3a) → 0.1.0 (a79af4d): noise floor ${CROSS_HARNESS_FLOOR_PCT} % (the spread between two commits of the harness)`]);
  // A kernel alone, and a CPU vendor under one model name, are differences too.
  assert.deepEqual(platformChange({ settings: { count: { platform: EPYC } } }, { settings: { count: { platform: { ...EPYC, kernel: '6.8.0', cpu: { ...EPYC.cpu, vendor: null } } } } }).differs,
    ['CPU vendor AuthenticAMD → unknown', 'kernel 6.1.0-28-cloud-amd64 → 6.8.0']);
});

test('another Node, or another Valgrind: refused in one line, exit 2', async () => {
  const base = saved('v20.json', { platform: EPYC });
  const node = await compare(base, saved('v22.json', { platform: { ...EPYC, node: { ...EPYC.node, version: 'v22.12.0' } } }));
  assert.equal(node.code, EXIT.USAGE);
  assert.equal(node.out, '');
  assert.equal(node.err.trim().split('\n').length, 1, node.err);
  assert.match(node.err, /counted instructions differently: Node version differs: v20\.20\.2 \(base\) vs v22\.12\.0 \(new\)/);
  const valgrind = await compare(base, saved('vg.json', { platform: EPYC, valgrind: 'valgrind-3.22.0' }));
  assert.equal(valgrind.code, EXIT.USAGE);
  assert.match(valgrind.err, /^mysql-driver-bench: error: .*Valgrind version differs: valgrind-3\.19\.0 \(base\) vs valgrind-3\.22\.0 \(new\)[^\n]*\n$/);
});

test('a run counted with libuv\'s thread pool of one thread against one counted before it was fixed: refused in one line, exit 2', async () => {
  const { code, out, err } = await compare(saved('pool4.json', { platform: EPYC }), saved('pool1.json', { platform: EPYC, threadPool: 1 }));
  assert.equal(code, EXIT.USAGE);
  assert.equal(out, '');
  assert.match(err, /^mysql-driver-bench: error: .*libuv thread pool differs: none \(base\) vs 1 \(new\)[^\n]*\n$/);
  assert.equal((await compare(saved('pool1a.json', { platform: EPYC, threadPool: 1 }), saved('pool1b.json', { platform: EPYC, threadPool: 1 }))).code, EXIT.OK);
});

test('runs whose counted processes loaded the harness differently (import() against require()): refused in one line, exit 2', async () => {
  const { code, out, err } = await compare(saved('import.json', { platform: EPYC, threadPool: 1, moduleLoading: 'import' }), saved('require.json', { platform: EPYC, threadPool: 1, moduleLoading: 'require' }));
  assert.equal(code, EXIT.USAGE);
  assert.equal(out, '');
  assert.match(err, /^mysql-driver-bench: error: .*module loading differs: import \(base\) vs require \(new\)[^\n]*\n$/);
  assert.equal((await compare(saved('req1.json', { platform: EPYC, threadPool: 1, moduleLoading: 'require' }), saved('req2.json', { platform: EPYC, threadPool: 1, moduleLoading: 'require' }))).code, EXIT.OK);
});

test('a run that recorded no platform: compared as before, its platform said to be unknown', async () => {
  const { code, out } = await compare(saved('old.json'), saved('now.json', { platform: XEON, perOp: MORE }), '--json', '-');
  assert.equal(code, EXIT.OK);
  const c = JSON.parse(out);
  assert.equal(c.platform.differs, null);
  assert.match(c.platform.note, /^platform unknown: '.*old\.json' recorded none/);
  assert.deepEqual([c.floorPct, c.rows[0].beyondFloor], [0.05, true]);
  assert.match((await compare(join(dir, 'old.json'), join(dir, 'now.json'))).out, /platform unknown/);
});
