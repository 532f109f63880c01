// --replay against a real server: each driver's conversation recorded from the embedded MariaDB and
// played back in-process (lib/conversations/transport.js), text and binary; a damaged reply or an unexpected
// command fails; the CLI captures, stores, reuses with the server stopped, and refuses damaged sets.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { useEmbeddedServer } from '../helpers/server.js';
import { isolatedDirs, noStackTrace, removeIsolatedDirs, runCli } from '../helpers/cli.js';
import { BENCHES } from '../../benchs/index.js';
import { checkFor, planFor, setUpBench } from '../../lib/measuring/bench/plan.js';
import { inspectServer } from '../../lib/server/schema.js';
import { loadDrivers } from '../../lib/drivers/index.js';
import { connectDirectly, recordConnections, replayConnections, takeMismatch } from '../../lib/conversations/transport.js';

const state = useEmbeddedServer({ prepare: true });
after(removeIsolatedDirs);

const bench = (name) => BENCHES.find((b) => b.name === name);
const fixture = (name) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/** One connection of `driver` on `benchName`, recorded over `ops` checked operations. */
async function capture(driver, benchName, ops = 12) {
  const b = bench(benchName);
  const context = await setUpBench(b, state.admin, { schema: state.target.database, server: await inspectServer(state.admin), options: {} });
  const plan = planFor(b, driver, context);
  const check = checkFor(plan, b);
  const recorders = recordConnections();
  const conn = await driver.connect(state.target);
  try {
    await plan.init?.(conn);
    const op = plan.op(conn);
    for (let i = 0; i < ops; i++) {
      recorders[0].markOp();
      check(await op());
    }
    return { recording: recorders[0].finish(), plan, check };
  } finally {
    connectDirectly();
    await conn.close();
  }
}

/** `ops` replayed operations of a plan, each checked; the connection closed after. */
async function replay(driver, recording, plan, check, ops = 200) {
  replayConnections(recording);
  try {
    const conn = await driver.connect({ ...state.target, password: 'not the password: nothing checks it' });
    try {
      await plan.init?.(conn);
      const op = plan.op(conn);
      for (let i = 0; i < ops; i++) check(await op());
    } finally {
      await conn.close();
    }
  } finally {
    connectDirectly();
  }
}

const drivers = await loadDrivers(['mysql', 'mysql2', 'mariadb']);

for (const driver of drivers) {
  for (const name of ['select_100_cols', 'execute', 'pipelining']) {
    test(`${driver.name}: ${name} replays from its recording, every result checked`, async (t) => {
      const b = bench(name);
      if (planFor(b, driver, { server: { bulk: true, blackhole: true } }).unsupported) return t.skip('not supported by this driver');
      const { recording, plan, check } = await capture(driver, name);
      assert.ok(recording.steps.length >= 12);
      await replay(driver, recording, plan, check);
    });
  }
}

test('the slow-adapter fixture with SLOW_ADAPTER_REPEAT_EVERY runs every Nth query twice, recorded and replayed', async () => {
  // Read when the module loads; removed at once, so that no CLI run of this file inherits it.
  process.env.SLOW_ADAPTER_REPEAT_EVERY = '4';
  let slow;
  try {
    [slow] = await loadDrivers([fixture('slow-adapter.js')]);
  } finally {
    delete process.env.SLOW_ADAPTER_REPEAT_EVERY;
  }
  const { recording, plan, check } = await capture(slow, 'do', 8);
  assert.equal(recording.ops, 8);
  assert.equal(recording.steps.length, 10); // 8 operations, the 4th and the 8th twice
  await replay(slow, recording, plan, check, 40);
});

test('a reply changed in the recording fails the check: a mis-parse is never fast', async () => {
  const mysql2 = drivers.find((d) => d.name === 'mysql2');
  const { recording, plan, check } = await capture(mysql2, 'select_100_cols');
  const last = Buffer.from([3, 0x31, 0x30, 0x30]); // the 100th column's value, '100'
  for (const step of recording.steps) {
    const at = step.reply.lastIndexOf(last);
    assert.ok(at > 0);
    step.reply[at + 3] = 0x31; // '101'
  }
  await assert.rejects(replay(mysql2, recording, plan, check, 3), /expected 100, got 101/);
});

test('a command the recording does not expect fails, naming the command', async () => {
  const mariadb = drivers.find((d) => d.name === 'mariadb');
  const { recording } = await capture(mariadb, 'do');
  const exec = bench('execute');
  const plan = planFor(exec, mariadb, {});
  await assert.rejects(replay(mariadb, recording, plan, checkFor(plan, exec), 3));
  assert.match(takeMismatch(), /wrote COM_STMT_PREPARE as command 1 where the recording has COM_QUERY/);
});

test('--count instructions counts each row under Valgrind: a driver reads its own count, added work reads as a regression', async () => {
  const { out, tmp } = isolatedDirs();
  const { host, port, user, password, database } = state.target;
  const env = { DB_HOST: host, DB_PORT: String(port), DB_USER: user, DB_PASSWORD: password, DB_DATABASE: database, SLOW_ADAPTER_LOOPS: '400', CRASHING_ADAPTER_AT: '200' };
  const slow = fixture('slow-adapter.js');
  const r = await runCli(['do', '--replay', '--count', 'instructions', '--smoke', '--drivers', `mysql2,mysql2#aa,${slow},${fixture('crashing-adapter.js')}`, '--baseline', 'mysql2',
    '--threshold', '5', '--out', out, '--json', '-'], { env, tmp, timeoutMs: 300000 });
  // A row whose process dies under Valgrind fails alone, saying so, and nothing is left running.
  assert.equal(spawnSync('pgrep', ['-f', out]).status, 1, 'a count process outlived its run');
  // The slow adapter's 400 loop iterations (about 8,000 instructions on mysql2's 25,000) are a
  // regression beyond --threshold 5: exit 1, in one line; mysql2 against itself is not.
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /REGRESSION: do · slow-mysql2: \+\d+(\.\d+)? % more instructions\/op \([\d,]+ → [\d,]+\) against mysql2, beyond --threshold 5 %/);
  assert.doesNotMatch(r.stderr, /REGRESSION: do · mysql2#aa/);
  const results = JSON.parse(r.stdout);
  assert.equal(results.settings.replay.figure, 'instructions');
  assert.match(results.settings.count.valgrind, /^valgrind-/);
  const [a, b, c] = results.benches[0].results;
  assert.equal(a.count.what, 'instructions');
  assert.ok(a.count.perOp > 1000, JSON.stringify(a));
  assert.equal(a.count.windows.length, 3);
  // The same driver, the same set, the same windows: the same count. --smoke counts an eighth of the
  // operations, in windows short enough that a collection more or less moved a row by 0.9 % in one
  // run (25,275 against 25,497); full-size windows repeat within the noise floor (measuring history).
  assert.ok(Math.abs(b.count.perOp / a.count.perOp - 1) * 100 <= 2, `${a.count.perOp} vs ${b.count.perOp}`);
  assert.ok(c.count.perOp > a.count.perOp * 1.1, `${a.count.perOp} vs ${c.count.perOp}`);
  const crashed = results.benches[0].results[3];
  assert.equal(crashed.status, 'failed');
  assert.match(crashed.error, /the count process under valgrind was killed \(SIGKILL\)/);
  const refused = await runCli(['do', '--count', 'instructions', '--smoke', '--out', out], { env, tmp });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /--count instructions counts the replayed client cost: it needs --replay/);
  const noCount = await runCli(['do', '--replay', '--jit-names', '--smoke', '--out', out], { env, tmp });
  assert.equal(noCount.code, 2);
  assert.match(noCount.stderr, /error: --jit-names names the JIT code of a count's kept profiles: it needs --replay --count instructions/m);
  const native = await runCli(['do', '--replay', '--count', 'allocations', '--collected-start', '--smoke', '--out', out], { env, tmp });
  assert.equal(native.code, 2);
  assert.match(native.stderr, /^mysql-driver-bench: error: --collected-start is a second heap state for a count under Valgrind: it needs --replay --count instructions \(or cycles\) — /m);
});

test('the CLI captures replay sets, reuses them with the server stopped, and refuses a damaged one', async () => {
  const { out, tmp } = isolatedDirs();
  const { host, port, user, password, database } = state.target;
  const env = { DB_HOST: host, DB_PORT: String(port), DB_USER: user, DB_PASSWORD: password, DB_DATABASE: database };
  const args = ['do', 'execute', '--replay', '--smoke', '--drivers', 'mysql,mariadb', '--out', out];
  const first = await runCli(args, { env, tmp });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /CLIENT COST \(replay\)/);
  assert.match(first.stderr, /0 replay set\(s\) reused, 4 captured/);
  assert.ok(!first.stdout.includes(password) && !first.stderr.includes(password));

  await state.server.stop();
  const second = await runCli(args, { env, tmp });
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stderr, /4 replay set\(s\) reused, 0 captured/);
  assert.doesNotMatch(second.stderr, /embedded server|capturing/);
  const saved = JSON.parse(readFileSync(join(out, readdirSync(out).filter((f) => f.endsWith('.json')).sort().pop()), 'utf8'));
  assert.equal(saved.settings.replay.figure, 'client cost');
  assert.equal(saved.settings.replay.warmupCollectionAfterOps, 16); // a smoke warm-up: 256 operations
  assert.ok(saved.benches.every((b) => b.results.every((r) => r.status === 'ok' || r.status === 'n/a')));
  for (const file of readdirSync(join(out, 'replay', 'do'))) assert.ok(!readFileSync(join(out, 'replay', 'do', file), 'utf8').includes(password));

  const recapture = await runCli([...args, '--recapture'], { env, tmp });
  assert.equal(recapture.code, 3);
  assert.match(recapture.stderr, /no stored replay set .* capturing one needs the server: nothing is listening/);
  assert.ok(noStackTrace(recapture.stderr));

  const dir = join(out, 'replay', 'do');
  const file = join(dir, readdirSync(dir)[0]);
  writeFileSync(file, readFileSync(file, 'utf8').slice(0, 200));
  const damaged = await runCli(args, { env, tmp });
  assert.equal(damaged.code, 2);
  assert.match(damaged.stderr, /replay set .* is unusable: not JSON .*truncated/);
  assert.equal(damaged.stderr.trim().split('\n').filter((l) => /error/.test(l)).length, 1);
  assert.ok(noStackTrace(damaged.stderr));
});
