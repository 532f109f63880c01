// calibrate --count cycles, the command: for real once (a --smoke cycles count under Valgrind, an
// allocations count and one timed sitting of `do`, the embedded server for the capture), and from saved
// runs (fixtures: the cycles count and one timed sitting of the seven design benches behind
// docs/history/2026-11-27-cycles.md, and an allocations count of the same rows), with the inputs it refuses. Every calibration file it saves passes docs/count-calibration.schema.json.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { useEmbeddedServer } from '../helpers/server.js';
import { isolatedDirs, removeIsolatedDirs, runCli } from '../helpers/cli.js';
import { undescribedFields } from '../helpers/schema.js';

const state = useEmbeddedServer({ prepare: true });
after(removeIsolatedDirs);

const fixture = (name) => fileURLToPath(new URL(`../fixtures/results/${name}`, import.meta.url));
const COUNTS = fixture('calibrate-count-cycles.json');
const TIMED = fixture('calibrate-count-timed.json');
const ALLOCATIONS = fixture('calibrate-count-allocations.json');
const { default: Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020.js');
const SCHEMA = JSON.parse(readFileSync(new URL('../../docs/count-calibration.schema.json', import.meta.url), 'utf8'));
const validate = new Ajv2020({ allErrors: true }).compile(SCHEMA);
const assertValid = (calibration) => assert.ok(validate(calibration), JSON.stringify(validate.errors?.slice(0, 3)));

test('calibrate --count cycles counts, times and calibrates, saving the runs and the calibration', async () => {
  const { out, tmp } = isolatedDirs();
  const { host, port, user, password, database } = state.target;
  const env = { DB_HOST: host, DB_PORT: String(port), DB_USER: user, DB_PASSWORD: password, DB_DATABASE: database };
  const r = await runCli(['calibrate', 'do', '--count', 'cycles', '--smoke', '--sittings', '1', '--drivers', 'mysql,mysql2,mariadb', '--out', out], { env, tmp, timeoutMs: 400000 });
  // One sitting is too few to judge: exit 1, saying so.
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /calibrate --count: 1 sitting\(s\) timed; the target is judged on at least 3/);
  assert.match(r.stdout, /│ do +│ mysql2 +│ mysql +│ +[\d.]+ × │ +[\d.]+ × │ +- │ +[\d.]+ × +│/);
  assert.match(r.stdout, /^instructions: median [\d.]+ %, largest [\d.]+ % \(do · (mysql2|mariadb)\)$/m);
  const files = readdirSync(out);
  const calibration = JSON.parse(readFileSync(join(out, files.find((f) => f.startsWith('count-calibration-'))), 'utf8'));
  assert.equal(calibration.kind, 'count-calibration');
  assertValid(calibration);
  assert.equal(calibration.rows.length, 2);
  // The calibration names the runs it rests on, both saved beside it.
  const counts = JSON.parse(readFileSync(calibration.counts, 'utf8'));
  assert.equal(counts.settings.count.what, 'cycles');
  assert.equal(calibration.timed.length, 1);
  assert.equal(JSON.parse(readFileSync(calibration.timed[0], 'utf8')).settings.count, undefined);
  const [row] = calibration.rows;
  assert.equal(row.instructionRatio, row.referenceEvents.instructions / row.events.instructions);
  // The allocations count of the same rows, saved beside them, and what it explains.
  assert.equal(JSON.parse(readFileSync(calibration.allocations, 'utf8')).settings.count.what, 'allocations');
  assert.ok(row.allocation.bytes > 0 && row.allocation.writes === 1, JSON.stringify(row.allocation));
  assert.match(r.stdout, /^allocation accounts for: .*; leaves: .*; no gap within ±5 %: /m);
});

test('calibrate --count from saved runs: the held-out weights and the verdict, exit 1 when the target is missed', async () => {
  const { out, tmp } = isolatedDirs();
  const r = await runCli(['calibrate', '--count', 'cycles', '--counts', COUNTS, '--allocations', ALLOCATIONS, '--timed', `${TIMED},${TIMED},${TIMED}`, '--out', out], { tmp });
  const calibration = JSON.parse(readFileSync(join(out, readdirSync(out).find((f) => f.startsWith('count-calibration-'))), 'utf8'));
  assert.equal(r.code, calibration.met ? 0 : 1, r.stderr);
  assertValid(calibration);
  // Seven benches, two drivers against mysql (execute: mariadb against mysql2); the count's A/A row,
  // mysql2#aa, was not timed and is left out.
  assert.equal(calibration.rows.length, 13);
  assert.ok(!calibration.rows.some((x) => x.driver === 'mysql2#aa'));
  assert.ok(calibration.rows.every((x) => x.heldOutWeights && x.heldOutRatio > 0), 'six benches of the other driver fit each held-out row');
  assert.match(r.stdout, /^est\. cycles, weights fitted without the row's bench and driver: median [\d.]+ %, largest [\d.]+ %/m);
  assert.match(r.stdout, /^verdict: estimated cycles (track|do not track) time/m);
  // What allocation explains: insert · mariadb's gap, the largest, named first among those it leaves.
  assert.equal(calibration.allocations, ALLOCATIONS);
  assert.deepEqual(calibration.allocation.leaves[0], { bench: 'insert', driver: 'mariadb' });
  assert.ok(calibration.rows.every((x) => x.allocationJudgment && x.writesVerdict), 'every row has its allocation judged');
  assert.match(r.stdout, /^allocation accounts for: .*; leaves: insert · mariadb, /m);
  assert.match(r.stdout, /^ {2}insert · mariadb: 1\.62 × faster against mysql than its instructions say; .*: too little$/m);
  assert.match(r.stdout, /^time ≈ instructions \+ k × bytes: .*adding bytes allocated (reduces|does not reduce) the held-out error$/m);
  // Given the count and the sittings but no allocations run, nothing is measured: no allocation part.
  const json = await runCli(['calibrate', '--count', 'cycles', '--counts', COUNTS, '--timed', TIMED, '--out', out, '--json'], { tmp });
  const plain = JSON.parse(json.stdout);
  assert.deepEqual(plain.rows.map((x) => x.bench), calibration.rows.map((x) => x.bench));
  assert.equal(plain.allocation, null);
  assert.equal(plain.rows[0].allocationJudgment, undefined);
  assertValid(plain);
  // The schema can refuse: a row without its time ratio, and weights that are not numbers.
  const [first, ...rest] = calibration.rows;
  const { timeRatio, ...untimed } = first;
  assert.equal(validate({ ...calibration, rows: [untimed, ...rest] }), false);
  assert.equal(validate({ ...calibration, fitted: { ...calibration.fitted, llHit: '5' } }), false);
});

test('every field of the calibration schema says what it means', () => {
  assert.deepEqual(undescribedFields(SCHEMA), []);
});

test('calibrate --count refuses what it cannot calibrate, in one line, exit 2', async () => {
  const { out, tmp } = isolatedDirs();
  const cases = [
    [['--count', 'instructions'], /calibrate --count instructions: calibrate counts with cycles, whose count reads instructions too, in the same windows — run calibrate --count cycles/],
    [['--count', 'cycles', '--counts', TIMED, '--timed', TIMED], /--counts .*calibrate-count-timed\.json: not a --count cycles run \(it is timed\)/],
    [['--count', 'cycles', '--counts', COUNTS, '--timed', COUNTS], /--timed .*calibrate-count-cycles\.json: a --count run, not a timed one/],
    [['--count', 'cycles', '--counts', COUNTS, '--allocations', COUNTS, '--timed', TIMED], /--allocations .*calibrate-count-cycles\.json: not a --count allocations run \(it counts cycles\)/],
    [['--count', 'cycles', '--counts', join(out, 'none.json'), '--timed', TIMED], /cannot read results file '.*none\.json': no such file/],
  ];
  for (const [args, message] of cases) {
    const r = await runCli(['calibrate', ...args, '--out', out], { tmp });
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});
