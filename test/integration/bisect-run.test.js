// scripts/bisect-run.js, the wrapper that gives `git bisect run` a count command's verdict in its
// terms (0 good, 1 bad, 125 skip, 128 stop): each mapping, then a whole `git bisect run` over a small
// repository with a stand-in for the count command (no Valgrind: the mapping is what is tested).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BAD, GOOD, SKIP, STOP, bisectCode, commandOf } from '../../scripts/bisect-run.js';
import { gitIn } from '../helpers/driver-repo.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/bisect-run.js', import.meta.url));
const base = mkdtempSync(join(tmpdir(), 'mdb-bisect-run-test-'));
after(() => rmSync(base, { recursive: true, force: true }));

const counted = (status = 'ok') => ({ benches: [{ name: 'do', results: [{ driver: 'a', status: 'ok', count: { perOp: 100 } }, { driver: 'b', status, count: status === 'ok' ? { perOp: 120 } : undefined }] }] });

test('the mapping: 0 good; 1 bad when every row was counted, else skip; 5 for the commit skip, for the host stop; anything else stop', () => {
  assert.equal(bisectCode(0, '', counted()), GOOD);
  assert.equal(bisectCode(1, 'REGRESSION: do · b: …', counted()), BAD);
  assert.equal(bisectCode(1, '', counted('failed')), SKIP);
  assert.equal(bisectCode(1, '', null), SKIP);
  assert.equal(bisectCode(5, 'mysql-driver-bench: error: cannot install the dependencies of mysql2@3.9.0+abc1234 (commit abc1234): …', null), SKIP);
  assert.equal(bisectCode(5, 'mysql-driver-bench: error: valgrind was not found: …', null), STOP);
  for (const code of [2, 3, 4, 70, 130, null]) assert.equal(bisectCode(code, '', null), STOP);
});

// A stand-in count command: reads `count` in the checkout, writes a results file, exits as the harness
// would with --threshold 10 against a good count of 100; a checkout whose `count` says `broken` is one
// whose dependencies do not install.
const FAKE = join(base, 'fake-count.js');
writeFileSync(FAKE, `
import { readFileSync, writeFileSync } from 'node:fs';
const text = readFileSync('count', 'utf8').trim();
if (text === 'broken') { process.stderr.write('mysql-driver-bench: error: cannot install the dependencies of x (commit y): npm ci failed\\n'); process.exit(5); }
const perOp = Number(text);
const json = process.argv[process.argv.indexOf('--json') + 1];
writeFileSync(json, JSON.stringify({ benches: [{ name: 'do', results: [{ driver: 'head', status: 'ok', count: { perOp } }] }] }));
process.exit(perOp > 110 ? 1 : 0);
`);

test('git bisect run with the wrapper finds the first commit whose count moved, skipping one that does not install', () => {
  const dir = join(base, 'repo');
  gitIn(base, 'init', '-q', '-b', 'main', dir);
  const counts = ['100', '100', '101', 'broken', '100', '130', '131', '130'];
  const shas = counts.map((c, i) => {
    writeFileSync(join(dir, 'count'), `${c}\n`);
    writeFileSync(join(dir, 'step'), `${i}\n`);
    gitIn(dir, 'add', '-A');
    gitIn(dir, 'commit', '-q', '-m', `commit ${i}`);
    return gitIn(dir, 'rev-parse', 'HEAD');
  });
  gitIn(dir, 'bisect', 'start', shas.at(-1), shas[0]);
  const r = spawnSync('git', ['-C', dir, 'bisect', 'run', process.execPath, SCRIPT, process.execPath, FAKE], { encoding: 'utf8' });
  gitIn(dir, 'bisect', 'reset');
  assert.equal(r.status, 0, r.stderr + r.stdout);
  assert.match(r.stdout, new RegExp(`^${shas[5]} is the first bad commit`, 'm'));
  assert.match(r.stderr, /bisect-run\.js: exit 1 -> bad \(1\)/);
});

test('without a command: a usage line and 128, so that git stops', () => {
  const r = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
  assert.equal(r.status, STOP);
  assert.match(r.stderr, /^usage: bisect-run\.js <count command\.\.\.>/);
});

test('stopped by SIGTERM while its command runs: the signal passed on, 128 (git stops), its temp dir removed', async () => {
  const { spawn } = await import('node:child_process');
  const { existsSync, readdirSync } = await import('node:fs');
  const tmp = mkdtempSync(join(base, 'tmp-'));
  const slow = join(base, 'slow.js');
  writeFileSync(slow, "process.on('SIGTERM', () => { process.stderr.write('slow: stopped\\n'); process.exit(143); });\nrequire('node:fs').writeFileSync(process.env.SLOW_READY, '');\nsetTimeout(() => {}, 60000);\n");
  const ready = join(base, 'slow-ready');
  const child = spawn(process.execPath, [SCRIPT, process.execPath, slow], { env: { ...process.env, TMPDIR: tmp, SLOW_READY: ready }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  // The command says it runs (its signal handler set; bisect-run.js made its dir before starting it).
  for (const deadline = Date.now() + 30000; !existsSync(ready) && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(readdirSync(tmp).filter((f) => f.startsWith('mdb-bisect-run-')).length, 1, 'its dir while the command runs');
  child.kill('SIGTERM');
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(code, STOP, stderr);
  assert.match(stderr, /slow: stopped/);
  assert.deepEqual(readdirSync(tmp), []);
});

test("`mysql-driver-bench` as the command is this harness's own CLI on this Node, found from a clone; another command is run as given", () => {
  const [program, args] = commandOf(['mysql-driver-bench', 'do', '--replay']);
  assert.equal(program, process.execPath);
  assert.match(args[0], /\/bin\/mysql-driver-bench\.js$/);
  assert.deepEqual(args.slice(1), ['do', '--replay']);
  assert.deepEqual(commandOf(['npx', 'mysql-driver-bench', 'do']), ['npx', ['mysql-driver-bench', 'do']]);
});
