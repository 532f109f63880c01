// --count instructions, the pure parts: sizing, reading Valgrind's total, Δ and comparing two counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { instructionWindow, parseDumpTotal, sizeCount } from '../../lib/replay/counters/instructions.js';
import { insideRoots, isGcEntry, parseCallgrind } from '../../lib/replay/callgrind.js';
import { unsteadyWindows } from '../../lib/replay/count-row.js';
import { countMessage, vgdbEnv } from '../../lib/replay/count-process.js';
import { COUNT_V8_FLAGS, HEAP_GROWING_FLAG } from '../../lib/replay/valgrind.js';
import { counterNamed } from '../../lib/replay/counters/index.js';
import { builtinAdapterFile } from '../../lib/drivers/index.js';
import { DETERMINISTIC_V8_FLAGS, FIXED_MALLOC_TUNABLES, fixedLayoutLauncher, fixedMallocTunables } from '../../lib/measuring/processes/same-program.js';
import { processRuntime } from '../../lib/measuring/processes/launch.js';
import { compareCounts, countIncomparability } from '../../lib/results/compare-counts.js';
import { applyDeltas } from '../../lib/results/deltas.js';
import { renderTable } from '../../lib/reporting/table.js';
import { describeRegressions, regressionsAgainstBaseline } from '../../lib/results/regressions.js';
import { renderResultsMarkdown } from '../../lib/reporting/markdown.js';
import { renderResultsHtml } from '../../lib/reporting/html.js';

test("a window's instructions are read from its callgrind dump, V8's compile and collector work left out", () => {
  assert.equal(parseDumpTotal('# callgrind format\nversion: 1\nevents: Ir\nsummary: 260182336\n\nfl=(1)\n'), 260182336);
  assert.equal(parseDumpTotal('events: Ir\ntotals: 5\n'), null);
  assert.deepEqual(instructionWindow('events: Ir\nsummary: 5000\nfn=(1) main\n0 5000\n'), { figure: 5000, jit: 0, gc: 0, fullCollections: 0 });
  // A compile and a deoptimization called from builtins; a compile inside the compile counted once.
  const dump = [
    'events: Ir', 'summary: 10000',
    'fn=(1) Builtins_CEntry_Return1_ArgvOnStack_NoBuiltinExit', '0 5000',
    'cfn=(2) v8::internal::Runtime_CompileOptimized(int, unsigned long*, v8::internal::Isolate*)', 'calls=1 0', '0 3000',
    'cfn=(3) v8::internal::Deoptimizer::New(unsigned long, v8::internal::DeoptimizeKind, v8::internal::Isolate*)', 'calls=2 0', '0 1000',
    "fn=(2)", '0 1000', 'cfn=(4) v8::internal::Runtime_CompileLazy(int, unsigned long*, v8::internal::Isolate*)', 'calls=1 0', '0 2000',
    'fn=(4)', '0 2000', 'fn=(3)', '0 1000', '',
  ].join('\n');
  assert.deepEqual(instructionWindow(dump), { figure: 6000, jit: 4000, gc: 0, fullCollections: 0 });
  assert.throws(() => instructionWindow('events: Ir\n'), /no summary line/);
  // A scavenge from an allocation's slow path and the harness's gc(), each through the collector's
  // entry: left out once each, the sweep inside it with them; a compile's own collection with the compile.
  const collected = [
    'events: Ir', 'summary: 17500',
    'fn=(1) Builtins_CEntry_Return1_ArgvOnStack_NoBuiltinExit', '0 6000',
    'cfn=(2) v8::internal::HeapAllocator::AllocateRawWithLightRetrySlowPath(int)', 'calls=1 0', '0 5000',
    'cfn=(3) v8::internal::GCExtension::GC(v8::FunctionCallbackInfo<v8::Value> const&)', 'calls=1 0', '0 3500',
    'cfn=(6) v8::internal::Runtime_CompileLazy(int, unsigned long*, v8::internal::Isolate*)', 'calls=1 0', '0 3000',
    'fn=(2)', '0 1000', 'cfn=(4) v8::internal::Heap::CollectGarbage(v8::internal::AllocationSpace)', 'calls=1 0', '0 4000',
    'fn=(3)', '0 500', 'cfn=(4)', 'calls=1 0', '0 3000',
    'fn=(4)', '0 5000', 'cfn=(5) v8::internal::Sweeper::RawSweep(v8::internal::Page*)', 'calls=2 0', '0 1500',
    'cfn=(7) v8::internal::MarkCompactCollector::CollectGarbage()', 'calls=1 0', '0 1500',
    'fn=(5)', '0 1500', 'fn=(7)', '0 1500',
    'fn=(6)', '0 2000', 'cfn=(4)', 'calls=1 0', '0 1000',
    '',
  ].join('\n');
  assert.deepEqual(instructionWindow(collected), { figure: 7500, jit: 3000, gc: 7000, fullCollections: 1 });
});

test("the functions that ran only inside a collection are the collector's; one that also ran outside is not", () => {
  const dump = parseCallgrind([
    'events: Ir', 'summary: 100',
    'fn=(1) main', '0 10', 'cfn=(2) mutator', 'calls=1 0', '0 60', 'cfn=(3) v8::internal::Heap::CollectGarbage(int)', 'calls=1 0', '0 30',
    'fn=(2)', '0 50', 'cfn=(4) memcpy', 'calls=1 0', '0 10',
    'fn=(3)', '0 5', 'cfn=(5) v8::internal::Scavenger::Process()', 'calls=1 0', '0 20', 'cfn=(4)', 'calls=1 0', '0 5',
    'fn=(5)', '0 15', 'cfn=(6) v8::internal::Scavenger::ScavengeObject()', 'calls=3 0', '0 5',
    'fn=(6)', '0 5', 'cfn=(5)', 'calls=1 0', '0 1',
    'fn=(4)', '0 15', '',
  ].join('\n'));
  assert.deepEqual([...insideRoots(dump, isGcEntry)].sort(), ['v8::internal::Heap::CollectGarbage(int)', 'v8::internal::Scavenger::Process()', 'v8::internal::Scavenger::ScavengeObject()']);
});

test('a count is sized from the commands and bytes of a replayed operation, the same on every run', () => {
  const recording = (sent, received, commands = 1) => ({
    cycleFrom: 1,
    cycleOps: 2,
    steps: [{ sent: 40, reply: Buffer.alloc(11) }, ...Array.from({ length: 2 * commands }, () => ({ sent, reply: Buffer.alloc(received) }))],
  });
  assert.deepEqual(sizeCount(recording(30, 11)), { warmup: 8192, ops: 512 });
  assert.deepEqual(sizeCount(recording(20, 8400)), { warmup: 1024, ops: 16 });
  assert.deepEqual(sizeCount(recording(30, 41000)), { warmup: 1024, ops: 8 });
  assert.deepEqual(sizeCount(recording(148, 11, 10)), { warmup: 1024, ops: 32 });
  assert.ok(COUNT_V8_FLAGS.includes('--predictable') && COUNT_V8_FLAGS.includes('--hash-seed=1'));
});

const count = { what: 'instructions', valgrind: 'valgrind-3.19.0', valgrindArgs: ['--tool=cachegrind'], v8Flags: ['--predictable'], noiseFloorPct: 0.05 };
const run = (perOp, extra = {}) => ({
  env: { node: 'v20.20.2' },
  settings: { baseline: 'mysql2', count, replay: { figure: 'instructions' }, ...extra.settings },
  drivers: [{ name: 'mysql2', options: {} }, { name: 'mariadb', options: {} }],
  benches: [{
    name: 'do',
    results: Object.entries(perOp).map(([driver, n]) => ({ driver, ok: true, status: 'ok', protocol: 'text', count: { what: 'instructions', perOp: n, ops: 3072, warmup: 8192, windows: [1, 2, 3], spreadPct: 0 } })),
  }],
  complete: true,
});

test('an instruction Δ is the row\'s count ÷ the reference\'s − 1 (+ is more work), called beyond the noise floor only', () => {
  const r = applyDeltas(run({ mysql2: 25000, mariadb: 25250 }));
  const mariadb = r.benches[0].results[1];
  assert.equal(mariadb.deltaPct, 1);
  assert.equal(mariadb.deltaSignificant, true);
  assert.equal(applyDeltas(run({ mysql2: 25000, mariadb: 24750 })).benches[0].results[1].deltaPct, -1, 'fewer instructions: below 0');
  const same = applyDeltas(run({ mysql2: 25000, mariadb: 25005 })).benches[0].results[1];
  assert.equal(same.deltaSignificant, false);
  assert.match(renderTable(r), /\+1\.00 % ±0\.05/);
  assert.match(renderTable(r), /instructions\/op/);
  assert.match(renderTable(r), /Δ: the row's instructions\/op ÷ the reference's − 1 \(\+ is more work\)/);
});

test('two counts: more work beyond the floor and the threshold is a regression; counted differently is refused', () => {
  const c = compareCounts(run({ mysql2: 25000, mariadb: 23000 }), run({ mysql2: 25500, mariadb: 23005 }), { threshold: 1 });
  const [mysql2, mariadb] = c.rows;
  assert.equal(mysql2.changePct, 2, '25,000 → 25,500: +2 %, more work');
  assert.equal(mysql2.regression, true);
  assert.equal(mariadb.beyondFloor, false);
  assert.equal(c.regressions.length, 1);
  assert.equal(compareCounts(run({ mysql2: 25000 }), run({ mysql2: 25100 }), { threshold: 1 }).regressions.length, 0);
  const fewer = compareCounts(run({ mysql2: 25500 }), run({ mysql2: 25000 }), { threshold: 1 });
  assert.deepEqual([fewer.rows[0].changePct, fewer.rows[0].beyondFloor, fewer.regressions.length], [-1.961, true, 0], 'fewer instructions beyond the threshold: no regression');
  assert.equal(countIncomparability(run({ mysql2: 1 }), run({ mysql2: 1 })), null);
  const otherNode = { ...run({ mysql2: 1 }), env: { node: 'v22.1.0' } };
  assert.match(countIncomparability(run({ mysql2: 1 }), otherNode), /Node version differs/);
  const otherFlags = run({ mysql2: 1 }, { settings: { count: { ...count, v8Flags: ['--no-opt'] } } });
  assert.match(countIncomparability(run({ mysql2: 1 }), otherFlags), /V8 flags differ/);
  const collected = run({ mysql2: 1 }, { settings: { count: { ...count, collectedStart: true } } });
  assert.match(countIncomparability(run({ mysql2: 1 }), collected), /heap state at the start differs: none \(base\) vs collected \(new\)/);
});

test('run --threshold: a row doing more work than the baseline beyond its noise floor and the threshold, in one line', () => {
  const results = applyDeltas(run({ mysql2: 25000, mariadb: 25400 }));
  assert.deepEqual(regressionsAgainstBaseline(results, 1), [{ bench: 'do', driver: 'mariadb', reference: 'mysql2', deltaPct: 1.6, counts: [25000, 25400] }]);
  assert.deepEqual(regressionsAgainstBaseline(results, 2), []);
  // Fewer instructions beyond the threshold is no regression.
  assert.deepEqual(regressionsAgainstBaseline(applyDeltas(run({ mysql2: 25000, mariadb: 24000 })), 1), []);
  // Within the count's noise floor: not called, whatever the threshold.
  assert.deepEqual(regressionsAgainstBaseline(applyDeltas(run({ mysql2: 25000, mariadb: 25010 })), 0), []);
  const failed = run({ mysql2: 25000, mariadb: 30000 });
  failed.benches[0].results[1] = { ...failed.benches[0].results[1], ok: false, status: 'failed' };
  assert.deepEqual(regressionsAgainstBaseline(applyDeltas(failed), 0), []);
  assert.deepEqual(describeRegressions(regressionsAgainstBaseline(results, 1), { baseline: 'mysql2', thresholdPct: 1, figure: 'instructions/op' }),
    ['REGRESSION: do · mariadb: +1.60 % more instructions/op (25,000 → 25,400) against mysql2, beyond --threshold 1 %']);
});

test('a head that needs more instructions reads + and "more" in its REGRESSION: line', () => {
  const results = applyDeltas(run({ 'mysql2@3.23.4+928c3c5': 99079, 'mysql2@3.23.4+23714c4': 100302 }, { settings: { baseline: 'mysql2@3.23.4+928c3c5', count } }));
  const found = regressionsAgainstBaseline(results, 1);
  assert.deepEqual(found.map((r) => [r.driver, r.deltaPct]), [['mysql2@3.23.4+23714c4', 1.234]]);
  assert.deepEqual(describeRegressions(found, { baseline: 'mysql2@3.23.4+928c3c5', thresholdPct: 1, figure: 'instructions/op' }),
    ['REGRESSION: do · mysql2@3.23.4+23714c4: +1.23 % more instructions/op (99,079 → 100,302) against mysql2@3.23.4+928c3c5, beyond --threshold 1 %']);
  // A timed run's line keeps ops/s' sign: below 0 is slower.
  const timed = { settings: { baseline: 'a' }, benches: [{ name: 'do', deltaReference: 'a', results: [{ driver: 'a', ok: true, deltaPct: 0 }, { driver: 'b', ok: true, deltaPct: -5.2, deltaSignificant: true }] }] };
  assert.deepEqual(describeRegressions(regressionsAgainstBaseline(timed, 1), { baseline: 'a', thresholdPct: 1 }), ['REGRESSION: do · b: -5.2 % ops/s against a, beyond --threshold 1 %']);
});

test('a count run as Markdown and HTML: instructions/op, the windows\' spread and Δ, not ops/s', () => {
  const results = applyDeltas(run({ mysql2: 25000, mariadb: 25400 }));
  const md = renderResultsMarkdown(results);
  assert.match(md, /\| bench \| driver \| protocol \| instructions\/op \| ops counted \| window spread \| Δ vs mysql2 \|/);
  assert.match(md, /\| do \| mysql2 \| text \| 25,000 \| 3,072 \| 0\.00 % \| baseline \|/);
  assert.match(md, /\+1\.60 % ±0\.05/);
  assert.doesNotMatch(md, /ops\/s/);
  const html = renderResultsHtml(results);
  assert.match(html, /do: instructions\/op per driver/);
  assert.match(html, /<th class="num">instructions\/op<\/th>/);
});

test('the counters under Valgrind compile without escape analysis and grow the old generation a hundredfold; the native allocation counter keeps both, as timed runs do', () => {
  for (const name of ['instructions', 'cycles']) {
    const flags = counterNamed(name).v8Flags;
    assert.ok(flags.includes('--no-turbo-escape'), name);
    assert.ok(flags.includes(HEAP_GROWING_FLAG) && !flags.includes('--predictable-gc-schedule'), `${name}: V8 applies --predictable-gc-schedule's 30 % after any --heap-growing-percent`);
    assert.ok(COUNT_V8_FLAGS.every((f) => flags.includes(f) || f === '--predictable-gc-schedule'), name);
  }
  assert.equal(counterNamed('allocations').v8Flags.includes(HEAP_GROWING_FLAG), false);
  assert.equal(counterNamed('allocations').v8Flags.includes('--no-turbo-escape'), false);
  assert.equal(processRuntime(null, { replay: true }).execArgv.includes('--no-turbo-escape'), false);
});

test("a replayed driver process runs V8 with the count's determinism flags, and without address randomization where setarch can", () => {
  const runtime = processRuntime(null, { replay: true });
  for (const flag of DETERMINISTIC_V8_FLAGS) {
    assert.ok(runtime.execArgv.includes(flag), flag);
    assert.ok(COUNT_V8_FLAGS.includes(flag), flag);
  }
  const launcher = fixedLayoutLauncher();
  if (launcher) {
    assert.equal(runtime.execPath, launcher.command);
    assert.deepEqual(runtime.execArgv.slice(0, launcher.args.length + 1), [...launcher.args, process.execPath]);
  } else assert.equal(runtime.execPath, undefined);
  // An end-to-end driver process keeps V8's usual behaviour, and malloc's.
  const live = processRuntime(null, { host: '127.0.0.1' });
  assert.equal(live.execPath, undefined);
  assert.ok(!live.execArgv.includes('--predictable'));
  assert.equal(live.env, undefined);
});

test("a replayed driver process runs with glibc's malloc thresholds fixed, after whatever tunables the harness had", () => {
  assert.match(FIXED_MALLOC_TUNABLES, /^glibc\.malloc\.mmap_threshold=\d+:glibc\.malloc\.trim_threshold=\d+$/);
  assert.equal(fixedMallocTunables(undefined), FIXED_MALLOC_TUNABLES);
  assert.equal(fixedMallocTunables('glibc.malloc.arena_max=2'), `glibc.malloc.arena_max=2:${FIXED_MALLOC_TUNABLES}`);
  assert.equal(processRuntime(null, { replay: true }).env.GLIBC_TUNABLES, fixedMallocTunables(process.env.GLIBC_TUNABLES));
  assert.equal(processRuntime({ kind: 'bun', exec: '/bin/bun' }, { replay: true }).env.GLIBC_TUNABLES, fixedMallocTunables(process.env.GLIBC_TUNABLES));
});

test('two counts taken with the same V8 flags in another order are comparable', () => {
  const withFlags = (v8Flags) => ({ env: { node: 'v20' }, settings: { count: { ...count, v8Flags } }, drivers: [] });
  assert.equal(countIncomparability(withFlags(['--a', '--b']), withFlags(['--b', '--a'])), null);
  assert.match(countIncomparability(withFlags(['--a']), withFlags(['--a', '--b'])), /V8 flags differ/);
});

test('a bench with a floor of its own (execute) and an unsteady row: neither called, by the run or by compare', () => {
  const withFloors = { settings: { count: { ...count, benchFloorsPct: { execute: 3.5 } } } };
  const onExecute = (perOp, count = {}) => {
    const r = run(perOp, withFloors);
    r.benches[0].name = 'execute';
    const last = r.benches[0].results.at(-1);
    last.count = { ...last.count, ...count };
    return r;
  };
  // 1.6 % more on execute: within its floor; on do, beyond the run's.
  assert.deepEqual(regressionsAgainstBaseline(applyDeltas(onExecute({ mysql2: 25000, mariadb: 25400 })), 1), []);
  assert.equal(regressionsAgainstBaseline(applyDeltas(run({ mysql2: 25000, mariadb: 25400 }, withFloors)), 1).length, 1);
  assert.equal(regressionsAgainstBaseline(applyDeltas(onExecute({ mysql2: 25000, mariadb: 26000 })), 1).length, 1, '4 % is beyond execute\'s floor');
  assert.deepEqual(regressionsAgainstBaseline(applyDeltas(onExecute({ mysql2: 25000, mariadb: 26000 }, { unsteady: true })), 1), []);
  const c = compareCounts(onExecute({ mariadb: 25000 }), onExecute({ mariadb: 25400 }), { threshold: 1 });
  assert.deepEqual([c.rows[0].floorPct, c.rows[0].beyondFloor, c.regressions.length], [3.5, false, 0]);
  const unsteady = compareCounts(onExecute({ mariadb: 25000 }), onExecute({ mariadb: 30000 }, { unsteady: true }), { threshold: 1 });
  assert.deepEqual([unsteady.rows[0].unsteady, unsteady.regressions.length], [true, 0]);
});

test('a window over 1.5 × its row\'s median window is a one-off event', () => {
  assert.equal(unsteadyWindows([16907970309, 2380177035, 2422757007]), true);
  assert.equal(unsteadyWindows([2430501633, 2400384022, 2402850854]), false);
  assert.equal(unsteadyWindows([315715296, 294956196, 301441827]), false, 'select_1000_rows: a collection in one window, 7 % apart');
});

test('--count with an unknown counter: one line listing the counters, the usage exit code, nothing run', async () => {
  const { main } = await import('../../lib/cli/index.js');
  const { EXIT } = await import('../../lib/common/errors.js');
  let out = '';
  let err = '';
  const stdout = { write: (s) => { out += s; return true; }, isTTY: false };
  const stderr = { write: (s) => { err += s; return true; }, isTTY: false };
  assert.equal(await main(['do', '--replay', '--count', 'bogus'], { stdout, stderr }), EXIT.USAGE);
  assert.equal(err.trim().split('\n').length, 1, err);
  assert.match(err, /--count bogus: no such counter; the counters are instructions, cycles, allocations$/m);
  assert.equal(out, '');
});

test("a results file of schema 2 is read with its counted rows' figures in count, as a run writes them now", async () => {
  const { readResults } = await import('../../lib/results/file.js');
  const data = readResults(new URL('../fixtures/results/count-instructions.json', import.meta.url).pathname);
  assert.equal(data.schema, 4, 'read as schema 4: its counted Δs turned too');
  const rows = data.benches.flatMap((b) => b.results).filter((r) => r.ok);
  assert.ok(rows.length > 0);
  for (const row of rows) {
    assert.equal(row.count.what, 'instructions');
    assert.ok(row.count.perOp > 0 && row.count.ops > 0 && row.count.windows.length === 3, JSON.stringify(row.count));
    assert.equal(row.instructionsPerOp, undefined);
    assert.equal(row.instructions, undefined);
  }
});

test("a count process's lines: its asks to switch instrumentation, and each worker's report; anything else is the driver's", () => {
  assert.deepEqual(countMessage('on 2'), { switch: 'on', index: 2, prime: false });
  assert.deepEqual(countMessage('primeoff 0'), { switch: 'off', index: 0, prime: true });
  assert.deepEqual(countMessage('{"index":1,"ok":true,"protocol":"text"}'), { report: { index: 1, ok: true, protocol: 'text' } });
  assert.deepEqual(countMessage('{"ok":false,"error":""}'), { report: { ok: false, error: '' } });
  // A driver's own output is not a message.
  assert.equal(countMessage('4096'), null);
  assert.equal(countMessage(''), null);
  assert.equal(countMessage('null'), null);
  assert.equal(countMessage('{"ops":3}'), null);
  assert.equal(countMessage('{ not json'), null);
});

test("a count process requires the built-in adapter its driver builds on, whatever the spec's release, checkout, options, label or tag", () => {
  const adapter = (name) => fileURLToPath(new URL(`../../lib/drivers/${name}.js`, import.meta.url));
  for (const spec of ['mysql2', 'mysql2#aa', 'mysql2@3.9.0', 'mysql2@file:/tmp/checkout', 'mysql2@git:../x#v3.9.0#2', 'head=mysql2@git:.#HEAD', 'mysql2:rowsAsArray=true']) {
    assert.equal(builtinAdapterFile(spec), adapter('mysql2'), spec);
  }
  assert.equal(builtinAdapterFile('mysql'), adapter('mysql'), 'mysql is not taken for mysql2, nor the reverse');
  assert.equal(builtinAdapterFile('mariadb@3.4.0'), adapter('mariadb'));
  assert.equal(builtinAdapterFile('./my-adapter.js'), null, 'an adapter file of its own: none');
  assert.equal(builtinAdapterFile('/abs/adapter.mjs'), null);
});

test("a count run's Δs written before schema 4 (+ was less work) are read with today's sign, once", async () => {
  const { readResults, SCHEMA_VERSION } = await import('../../lib/results/file.js');
  const { COUNT_DELTA_SCHEMA, flipCountDelta, readCountDeltas } = await import('../../lib/results/counts.js');
  assert.equal(SCHEMA_VERSION, COUNT_DELTA_SCHEMA);
  const file = new URL('../fixtures/results/count-instructions.json', import.meta.url).pathname;
  const onDisk = JSON.parse(readFileSync(file, 'utf8')).benches[0].results[1];
  assert.deepEqual([onDisk.driver, onDisk.instructionsPerOp, onDisk.deltaPct, onDisk.deltaSignificant], ['slow-mysql2', 25606, -0.062, true], 'as schema 2 wrote it: 25,590 ÷ 25,606 − 1');
  const data = readResults(file);
  const slow = data.benches[0].results[1];
  assert.equal(slow.deltaPct, 0.062, '25,606 ÷ 25,590 − 1: more work, +');
  assert.deepEqual(slow.deltaCI.map((x) => Math.round(x * 1e3) / 1e3), [0.012, 0.112], 'the interval keeps its width');
  assert.equal(slow.deltaSignificant, true, "the run's call stands");
  assert.equal(data.benches[0].results[0].deltaPct, 0, 'the reference stays 0');
  assert.equal(data.schema, 4);
  // Read again (a file merge wrote from it): not turned twice.
  assert.equal(readCountDeltas(data).benches[0].results[1].deltaPct, 0.062);
  assert.equal(flipCountDelta(67.533), -40.31, "mysql2's 48,724 against mysql's 81,629 instructions/op: 40 % fewer");
  // A timed file of an older schema is read as it is.
  const timed = readResults(new URL('../fixtures/results/readme-example.json', import.meta.url).pathname);
  assert.equal(timed.schema, 2);
});

test("two counts taken by another design, after another primer or in another sandbox are refused, naming what differs", () => {
  const withCount = (extra) => ({ env: { node: 'v20.20.2' }, settings: { count: { ...count, process: 'rows', primer: ['do', 'insert'], sandbox: { root: '/tmp', nodeFlags: [], env: 'fixed' }, ...extra } } });
  assert.equal(countIncomparability(withCount({}), withCount({})), null);
  assert.match(countIncomparability(withCount({}), withCount({ primer: ['do'] })), /^primer differs: do insert \(base\) vs do \(new\)/);
  assert.match(countIncomparability(withCount({}), withCount({ process: undefined })), /^count design differs/);
  assert.match(countIncomparability(withCount({}), withCount({ sandbox: { root: '/var/tmp', nodeFlags: [], env: 'fixed' } })), /^sandbox differs/);
});

test("vgdb sees the user and host the counted process's fixed environment names its FIFOs after, not the caller's", () => {
  const caller = { PATH: '/usr/bin', USER: 'runner', LOGNAME: 'runner', HOSTNAME: 'fv-az1', HOME: '/home/runner' };
  assert.deepEqual(vgdbEnv(caller, { PATH: '/usr/bin:/bin', TZ: 'UTC' }), { PATH: '/usr/bin', HOME: '/home/runner' });
  assert.deepEqual(vgdbEnv({ PATH: '/x' }, { USER: 'u', HOST: 'h' }), { PATH: '/x', USER: 'u', HOST: 'h' });
});
