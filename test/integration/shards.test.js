// Sharded runs and `merge`: the share of cells each shard measures, the join, and its refusals; then
// two shards on two "hosts" (network namespaces with veth links, the server in a third), merged and
// set against a one-machine run of the same benches. The namespaces need root; without it that test
// is skipped with the reason printed.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assignCells, parseShard, parseStartAt, shardBenches, waitUntil } from '../../lib/measuring/run/shards.js';
import { mergeShards } from '../../lib/results/merge.js';
import { loadDrivers } from '../../lib/drivers/index.js';
import { selectBenches } from '../../benchs/index.js';
import { notApplicableReason } from '../../lib/measuring/bench/plan.js';
import { readResults } from '../../lib/results/file.js';
import { BIN, noStackTrace, runCli } from '../helpers/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'mdb-shards-test-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('--shard i/n: 1 ≤ i ≤ n, anything else one line', () => {
  assert.deepEqual(parseShard('2/3'), { index: 2, count: 3 });
  for (const bad of ['3/2', '0/2', '1/0', 'a/b', '1-2', '']) assert.throws(() => parseShard(bad), (err) => err.exitCode === 2 && /--shard must be i\/n/.test(err.message), bad);
});

test('--start-at: a time the shards share; waiting ends at it, or at Ctrl-C', async () => {
  const now = Date.parse('2026-11-25T22:00:00Z');
  assert.equal(parseStartAt('2026-11-25T22:30:00Z', now), Date.parse('2026-11-25T22:30:00Z'));
  assert.equal(parseStartAt(String(now / 1000 + 60), now), now + 60000);
  assert.throws(() => parseStartAt('tomorrow', now), (err) => err.exitCode === 2 && /--start-at must be a time/.test(err.message));
  assert.throws(() => parseStartAt('2026-11-27T22:00:00Z', now), /more than 24 h away/);
  const t0 = Date.now();
  await waitUntil(t0 + 150);
  assert.ok(Date.now() - t0 >= 140);
  await waitUntil(t0 - 1000); // passed: at once
  const stop = new AbortController();
  setTimeout(() => stop.abort(new Error('interrupted')), 50);
  await assert.rejects(waitUntil(Date.now() + 60000, stop.signal), /interrupted/);
});

test("every cell is measured by exactly one shard, and every shard measures each bench's reference row", async () => {
  const benches = selectBenches(['do', 'insert', 'execute', 'select_100_cols', 'batch']);
  const drivers = await loadDrivers(['mysql', 'mysql2', 'mariadb', 'mysql2#b']);
  const context = { schema: 's', server: { kind: 'mariadb', bulk: true, blackhole: true } };
  const owner = assignCells(benches, drivers.map((d) => d.name), 'mysql', 3);
  assert.deepEqual(assignCells(benches, drivers.map((d) => d.name), 'mysql', 3), owner, 'the same on every machine');
  const counts = [1, 2, 3].map((i) => [...owner.values()].filter((s) => s === i).length);
  assert.ok(Math.max(...counts) - Math.min(...counts) <= 1, `dealt evenly: ${counts}`);
  const measuredBy = new Map();
  for (const index of [1, 2, 3]) {
    for (const bench of shardBenches(benches, drivers, 'mysql', { index, count: 3 })) {
      for (const driver of drivers) {
        const why = notApplicableReason(bench.plan(driver, context));
        if (why && /^measured by shard \d\/3$/.test(why)) continue;
        const key = `${bench.name} · ${driver.name}`;
        measuredBy.set(key, [...(measuredBy.get(key) ?? []), index]);
      }
    }
  }
  for (const bench of benches) {
    const reference = bench.name === 'execute' ? 'mysql2' : 'mysql'; // mysql has no prepared statements
    assert.deepEqual(measuredBy.get(`${bench.name} · ${reference}`), [1, 2, 3], `${bench.name}: its reference row in every shard`);
    for (const d of drivers.filter((x) => x.name !== 'mysql' && x.name !== reference)) {
      assert.equal(measuredBy.get(`${bench.name} · ${d.name}`)?.length, 1, `${bench.name} · ${d.name} in one shard`);
    }
  }
});

// ---- merge, on a real results file cut into two shards -------------------------------------------

const fixture = () => readResults(fileURLToPath(new URL('../fixtures/results/replay-client-cost.json', import.meta.url)));

/** A real run's results as shard `index` of `count` would have saved them: other shards' rows n/a. */
function asShard(results, index, count) {
  const copy = structuredClone(results);
  copy.settings.shard = { index, count };
  copy.env.host = `host-${index}`;
  copy.env.harness = { version: '0.1.0', commit: 'abc' };
  const owner = assignCells(copy.benches, copy.drivers.map((d) => d.name), copy.settings.baseline, count);
  for (const b of copy.benches) {
    b.results = b.results.map((r) => {
      const j = owner.get(`${b.name}\u0000${r.driver}`);
      return j && j !== index && r.status !== 'n/a' ? { driver: r.driver, protocol: 'n/a', ok: false, status: 'n/a', error: `measured by shard ${j}/${count}` } : r;
    });
  }
  return copy;
}

test('merge: each cell from the shard that measured it, the machines named; refusals in one line', () => {
  const run = fixture();
  const shards = [1, 2].map((i) => ({ file: `/x/shard-${i}.json`, results: asShard(run, i, 2) }));
  const merged = mergeShards([shards[1], shards[0]]); // any order
  for (const b of run.benches) {
    for (const r of b.results) {
      const m = merged.benches.find((x) => x.name === b.name).results.find((x) => x.driver === r.driver);
      assert.equal(m.status, r.status, `${b.name} · ${r.driver}`);
      if (r.ok) assert.equal(m.opsPerSec, r.opsPerSec);
    }
  }
  assert.deepEqual(merged.shards.map((s) => [s.index, s.host]), [[1, 'host-1'], [2, 'host-2']]);
  assert.ok(merged.shards[1].cells.length > 0);
  assert.deepEqual(merged.settings.shard, { count: 2, merged: true });
  const refused = (list, re) => assert.throws(() => mergeShards(list), (err) => err.exitCode === 2 && re.test(err.message), String(re));
  refused([shards[0]], /^shard 2\/2 is missing$/);
  refused([shards[0], shards[0]], /^shard 1\/2 is given twice/);
  refused([{ file: '/x/plain.json', results: run }], /plain\.json is not a shard's results/);
  const other = (change) => { const s = structuredClone(shards[1]); change(s.results); return s; };
  refused([shards[0], other((r) => { r.env.harness.commit = 'def'; })], /different code \(mysql-driver-bench 0\.1\.0 at abc ≠ mysql-driver-bench 0\.1\.0 at def\)/);
  refused([shards[0], other((r) => { r.settings.rounds = 7; })], /different settings \(rounds: \d+ ≠ 7\)/);
  refused([shards[0], other((r) => { r.server.version = '11.4.2-MariaDB'; })], /different servers/);
  refused([shards[0], other((r) => { r.drivers[1].version = '9.9.9'; })], /different drivers/);
  // A replayed run's shards, one after the other on one machine: the second reuses the first's sets.
  const replayed = (i, captured) => { const s = structuredClone(shards[i]); s.results.settings.replay = { figure: 'instructions', sets: 50, captured, reused: 50 - captured, dir: `/out-${i}/replay` }; return s; };
  assert.equal(mergeShards([replayed(0, 50), replayed(1, 0)]).settings.shard.merged, true);
  refused([replayed(0, 50), other((r) => { r.settings.replay = { figure: 'time', sets: 50, captured: 0, reused: 50 }; })], /different settings \(replay\.figure: "instructions" ≠ "time"\)/);
});

test('merge on the command line: the file written whole or not at all; a missing shard leaves an existing file alone', async () => {
  const run = fixture();
  const files = [1, 2].map((i) => {
    const f = join(scratch, `s${i}.json`);
    writeFileSync(f, JSON.stringify(asShard(run, i, 2)));
    return f;
  });
  const out = join(scratch, 'all.json');
  writeFileSync(out, 'an earlier merge\n');
  const bad = await runCli(['merge', files[0], '--json', out]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^mysql-driver-bench: error: shard 2\/2 is missing — /m);
  assert.ok(noStackTrace(bad.stderr));
  assert.equal(readFileSync(out, 'utf8'), 'an earlier merge\n');
  const good = await runCli(['merge', ...files, '--json', out]);
  assert.equal(good.code, 0, good.stderr);
  assert.match(good.stdout, /shard 2\/2 on host-2 .*measured /);
  assert.equal(readResults(out).shards.length, 2);
  assert.deepEqual(readdirSync(scratch).filter((f) => f.endsWith('.tmp')), []);
});

test('merge of a shard whose run stopped part-way: written as far as it went, marked incomplete, exit 4', async () => {
  const run = fixture();
  const stopped = Object.assign(asShard(run, 1, 2), { complete: false, stoppedBy: 'interrupted by SIGTERM' });
  stopped.benches = stopped.benches.slice(0, -1); // the last bench was not reached
  const files = [stopped, asShard(run, 2, 2)].map((results, i) => {
    const f = join(scratch, `stopped-${i + 1}.json`);
    writeFileSync(f, JSON.stringify(results));
    return f;
  });
  const out = join(scratch, 'stopped-all.json');
  const r = await runCli(['merge', ...files, '--json', out, '--quiet']);
  assert.equal(r.code, 4, r.stderr);
  const merged = readResults(out);
  assert.equal(merged.complete, false);
  assert.equal(merged.stoppedBy, 'interrupted by SIGTERM');
  assert.deepEqual(merged.benches.map((b) => b.name), stopped.benches.map((b) => b.name));
});

// ---- two shards on two "hosts" ---------------------------------------------------------------------

const ip = (...args) => spawnSync('ip', args, { encoding: 'utf8' });
const NS = { server: 'mdb-shard-srv', a: 'mdb-shard-a', b: 'mdb-shard-b' };
const netnsReason = process.getuid?.() !== 0 ? 'not root: network namespaces need it'
  : ip('netns', 'add', 'mdb-shard-probe').status !== 0 ? `ip netns add failed: ${ip('netns', 'add', 'mdb-shard-probe').stderr.trim()}`
    : (ip('netns', 'del', 'mdb-shard-probe'), null);
if (netnsReason) process.stdout.write(`# SKIP two hosts as network namespaces: ${netnsReason}\n`);

function makeHosts() {
  for (const ns of Object.values(NS)) { ip('netns', 'del', ns); ip('netns', 'add', ns); ip('-n', ns, 'link', 'set', 'lo', 'up'); }
  // One veth link per host to the server's namespace: 10.77.1.0/24 for host a, 10.77.2.0/24 for b.
  for (const [host, net] of [['a', 1], ['b', 2]]) {
    const [h, s] = [`mdbv${host}h`, `mdbv${host}s`];
    ip('link', 'add', h, 'netns', NS[host], 'type', 'veth', 'peer', 'name', s, 'netns', NS.server);
    ip('-n', NS[host], 'addr', 'add', `10.77.${net}.2/24`, 'dev', h);
    ip('-n', NS.server, 'addr', 'add', `10.77.${net}.1/24`, 'dev', s);
    ip('-n', NS[host], 'link', 'set', h, 'up');
    ip('-n', NS.server, 'link', 'set', s, 'up');
  }
}
const dropHosts = () => { for (const ns of Object.values(NS)) ip('netns', 'del', ns); };

/** The harness in host `host`'s namespace, with that host name (its own UTS namespace). */
function runOn(host, args, env) {
  return new Promise((resolve) => {
    const child = spawn('unshare', ['--uts', 'sh', '-c', `hostname host-${host} && exec ip netns exec ${NS[host]} "$0" "$@"`, process.execPath, BIN, ...args],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test('two shards on two hosts (network namespaces, the server in a third), merged: every cell of a one-machine run', { skip: netnsReason ?? false, timeout: 240000 }, async () => {
  makeHosts();
  const server = spawn('ip', ['netns', 'exec', NS.server, process.execPath, fileURLToPath(new URL('../helpers/netns-server.js', import.meta.url)), '--serve', '3306'], { stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    const target = await new Promise((resolve, reject) => {
      let text = '';
      server.stdout.on('data', (d) => { text += d; if (text.includes('\n')) resolve(JSON.parse(text)); });
      server.on('exit', (code) => reject(new Error(`the server in its namespace exited (${code})`)));
    });
    const dbEnv = (net) => ({ DB_HOST: `10.77.${net}.1`, DB_PORT: String(target.port), DB_USER: target.user, DB_PASSWORD: target.password, DB_DATABASE: target.database });
    const benches = ['do', 'select_100_cols', 'execute'];
    const out = join(scratch, 'hosts');
    const one = await runOn('a', [...benches, '--smoke', '--json', join(out, 'one.json'), '--out', join(out, 'one')], dbEnv(1));
    assert.equal(one.code, 0, one.stderr);
    const a = await runOn('a', [...benches, '--smoke', '--shard', '1/2', '--json', join(out, 'a.json'), '--out', join(out, 'a')], dbEnv(1));
    assert.equal(a.code, 0, a.stderr);
    const b = await runOn('b', [...benches, '--smoke', '--shard', '2/2', '--json', join(out, 'b.json'), '--out', join(out, 'b')], dbEnv(2));
    assert.equal(b.code, 0, b.stderr);
    const m = await runCli(['merge', join(out, 'a.json'), join(out, 'b.json'), '--json', join(out, 'all.json')]);
    assert.equal(m.code, 0, m.stderr);
    assert.ok(!a.stderr.includes(target.password) && !m.stdout.includes(target.password), 'no password printed');
    const single = readResults(join(out, 'one.json'));
    const merged = readResults(join(out, 'all.json'));
    assert.deepEqual(merged.shards.map((s) => s.host), ['host-a', 'host-b']);
    for (const bench of single.benches) {
      for (const row of bench.results) {
        const got = merged.benches.find((x) => x.name === bench.name).results.find((x) => x.driver === row.driver);
        assert.equal(got?.status, row.status, `${bench.name} · ${row.driver}: ${got?.error ?? ''}`);
        if (row.ok && row.deltaPct !== undefined && row.deltaPct !== null) assert.ok(Number.isFinite(got.deltaPct), `${bench.name} · ${row.driver} has its Δ`);
      }
    }
    assert.ok(merged.shards[1].cells.length > 0 && merged.shards[1].cells.every((c) => !c.endsWith(' · mysql')), merged.shards[1].cells.join());
  } finally {
    server.stdin.end();
    await new Promise((resolve) => { server.on('exit', resolve); setTimeout(resolve, 10000); });
    dropHosts();
  }
});
