// End to end through the CLI, each run in its own TMPDIR so leftovers can be checked.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedDirs, runCli, startCli, leftovers, processesMentioning, removeIsolatedDirs, noStackTrace } from '../helpers/cli.js';
import { useEmbeddedServer } from '../helpers/server.js';
import { DEFAULT_BENCHES } from '../../benchs/index.js';
import { PRESETS } from '../../lib/resolve-run.js';
import { SCHEMA_VERSION } from '../../lib/results/file.js';

const remote = useEmbeddedServer({ database: 'cli_test_schema' });
after(removeIsolatedDirs);

const savedResults = (out) => readdirSync(out).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(out, f), 'utf8')));

function assertNothingLeft(tmp) {
  const left = leftovers(tmp);
  assert.deepEqual(left.processes, [], 'no mariadbd (or watchdog) left running');
  assert.deepEqual(left.files, [], 'no temp directory left behind');
}

test('--smoke --json - : only JSON on stdout, every bench x driver, nothing left behind', async () => {
  const { tmp, out } = isolatedDirs();
  // Its duration is a benchmark figure, not asserted (a busy host may take several times as long).
  const r = await runCli(['--smoke', '--json', '-', '--out', out], { tmp, timeoutMs: 600000 });
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout);
  assert.equal(json.schema, SCHEMA_VERSION);
  assert.equal(json.complete, true);
  assert.equal(json.server.embedded, true);
  assert.deepEqual(json.benches.map((b) => b.name), DEFAULT_BENCHES.map((b) => b.name));
  for (const bench of json.benches) {
    assert.deepEqual(bench.results.map((x) => x.driver).sort(), ['mariadb', 'mysql', 'mysql2'], bench.name);
    for (const row of bench.results) {
      if (row.ok) {
        assert.ok(row.opsPerSec > 0 && row.samples >= 2 && Number.isFinite(row.rme), `${bench.name} ${row.driver}`);
        assert.ok(row.latency.p50 > 0 && row.latency.p99 >= row.latency.p50);
        assert.ok(row.cost.clientCpuUsPerOp > 0 && row.cost.serverCpuUsPerOp >= 0, `${bench.name} ${row.driver}: ${JSON.stringify(row.cost)}`);
        assert.equal(row.rounds.length, json.settings.rounds);
      } else {
        assert.equal(row.status, 'n/a', `${bench.name} ${row.driver}: ${row.error}`);
        assert.match(row.error, /not supported by driver/);
      }
    }
  }
  for (const key of ['startedAt', 'env', 'server', 'drivers', 'settings']) assert.ok(json[key], key);
  assert.equal(json.settings.placement.mode, 'shared');
  assert.equal(json.settings.wake, 'none');
  assert.equal(json.settings.jit, 'background');
  assert.deepEqual(Object.keys(json.env).filter((k) => ['node', 'platform', 'cpuModel', 'cpus'].includes(k)).sort(), ['cpuModel', 'cpus', 'node', 'platform']);
  assert.deepEqual(savedResults(out).length, 1, 'the results file is saved too');
  assert.doesNotMatch(r.stdout + r.stderr + JSON.stringify(savedResults(out)), /password/i);
  assertNothingLeft(tmp);
});

test('a remote run never shows its password, on stdout, stderr or in the results', async () => {
  const { tmp, out } = isolatedDirs();
  const { target } = remote;
  const r = await runCli(['do', '--smoke', '--out', out], {
    tmp, env: { DB_HOST: target.host, DB_PORT: String(target.port), DB_USER: target.user, DB_PASSWORD: target.password, DB_DATABASE: 'cli_test_schema' },
  });
  assert.equal(r.code, 0, r.stderr);
  const json = savedResults(out)[0];
  assert.equal(json.server.embedded, false);
  for (const text of [r.stdout, r.stderr, JSON.stringify(json)]) assert.ok(!text.includes(target.password));
  assertNothingLeft(tmp);
});

test('a wrong password is one clear line and exit 3, without the password or a stack trace', async () => {
  const { tmp, out } = isolatedDirs();
  const { target } = remote;
  const wrong = 'Wr0ng-Pa55word-zz';
  const r = await runCli(['--smoke', '--out', out, '--host', target.host, '--port', String(target.port), '--user', target.user, '--password', wrong], { tmp });
  assert.equal(r.code, 3);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], /^mysql-driver-bench: error: access denied for user 'bench' on 127\.0\.0\.1:\d+ — check the user and password/);
  assert.ok(!r.stderr.includes(wrong) && !r.stdout.includes(wrong));
  assert.ok(noStackTrace(r.stderr));
  assert.deepEqual(readdirSync(out).filter((f) => f.endsWith('.json')), [], 'nothing was measured, nothing saved');
  assertNothingLeft(tmp);
});

test('an unreachable port is one clear line and exit 3', async () => {
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['--smoke', '--out', out, '--host', '127.0.0.1', '--port', '1'], { tmp });
  assert.equal(r.code, 3);
  assert.match(r.stderr.trim(), /^mysql-driver-bench: error: nothing is listening on 127\.0\.0\.1:1 \(connection refused\) — is the server running\?/);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  assert.ok(noStackTrace(r.stderr));
});

test('unknown bench or driver: exit 2 with the valid names, before anything starts', async () => {
  const { tmp } = isolatedDirs();
  let r = await runCli(['nosuchbench'], { tmp });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /unknown bench: nosuchbench — valid benches: do, insert, batch, pipelining, select_100_cols, select_1000_rows, execute/);
  r = await runCli(['--drivers', 'mysql,pg'], { tmp });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /unknown driver: pg — valid drivers: mysql, mysql2, mariadb/);
  assertNothingLeft(tmp);
});

const PROCESSES = PRESETS.default.processes;
const driverProcesses = (tmp) => processesMentioning(tmp).filter((p) => /driver-process\.js/.test(p));

test('Ctrl-C half-way: exit 130, partial results saved, server, driver processes and temp dir gone', async () => {
  const { tmp, out } = isolatedDirs();
  let sent = false;
  let drivers = [];
  const { done } = startCli(['--time', '1', '--warmup', '0.2', '--out', out], {
    tmp,
    onStderr: (text, child) => {
      if (!sent && /\[\s*3\/\d+\]/.test(text)) {
        sent = true;
        drivers = driverProcesses(tmp);
        // As a terminal does: to the whole process group (the driver processes leave it to the harness).
        process.kill(-child.pid, 'SIGINT');
      }
    },
    detached: true,
  });
  const r = await done;
  assert.ok(sent, 'the signal was sent');
  assert.equal(drivers.length, 3 * PROCESSES, `${PROCESSES} processes per driver while measuring: ${drivers.join('; ')}`);
  assert.equal(r.code, 130, r.stderr);
  const [json] = savedResults(out);
  assert.equal(json.complete, false);
  assert.equal(json.stoppedBy, 'interrupted by SIGINT');
  const measured = json.benches.flatMap((b) => b.results).filter((x) => x.ok);
  assert.ok(measured.length >= 3, 'rows measured before the signal are kept');
  assert.match(r.stdout, /INCOMPLETE: interrupted by SIGINT/);
  assert.ok(noStackTrace(r.stderr));
  assertNothingLeft(tmp);
});

/** Run the CLI with `args` (and --out) in its own process group, and SIGHUP the group once stderr matches `when`. */
async function hungUpWhen(when, args) {
  const { tmp, out } = isolatedDirs();
  let sent = false;
  const { done } = startCli([...args, '--out', out], {
    tmp,
    onStderr: (text, child) => {
      if (!sent && when.test(text)) {
        sent = true;
        process.kill(-child.pid, 'SIGHUP');
      }
    },
    detached: true,
  });
  const r = await done;
  assert.ok(sent, 'the signal was sent');
  assert.equal(r.code, 129, r.stderr);
  return { r, tmp, out };
}

test('the terminal closed (SIGHUP to the process group) mid-run: exit 129, partial results saved, nothing left', async () => {
  const { r, tmp, out } = await hungUpWhen(/\[\s*2\/\d+\]/, ['do', 'insert', 'batch', '--time', '0.5', '--warmup', '0.1']);
  const [json] = savedResults(out);
  assert.equal(json.complete, false);
  assert.equal(json.stoppedBy, 'interrupted by SIGHUP');
  assert.ok(json.benches.flatMap((b) => b.results).filter((x) => x.ok).length >= 3, 'the first bench\'s rows are kept');
  assert.ok(noStackTrace(r.stderr));
  assertNothingLeft(tmp);
});

test('SIGHUP while a replay run captures its sets: exit 129 in one line, no stack trace, nothing left', async () => {
  const { r, tmp } = await hungUpWhen(/replay: capturing/, ['do', '--replay']);
  assert.match(r.stderr, /^mysql-driver-bench: interrupted by SIGHUP: stopped before anything was measured, nothing left running$/m);
  assert.doesNotMatch(r.stderr, /unexpected error/);
  assert.ok(noStackTrace(r.stderr));
  assertNothingLeft(tmp);
});

test('the harness itself killed (SIGKILL) mid-run: its stopped driver processes, server and temp dir are cleaned up by the watchdogs', async () => {
  const { tmp, out } = isolatedDirs();
  let drivers = [];
  const { done } = startCli(['--time', '1', '--warmup', '0.2', '--out', out], {
    tmp,
    onStderr: (text, child) => {
      if (drivers.length === 0 && /\[\s*2\/\d+\]/.test(text)) {
        drivers = driverProcesses(tmp);
        child.kill('SIGKILL');
      }
    },
  });
  const r = await done;
  assert.equal(r.signal, 'SIGKILL');
  assert.equal(drivers.length, 3 * PROCESSES, drivers.join('; '));
  let left = leftovers(tmp);
  for (let i = 0; i < 100 && (left.processes.length || left.files.length); i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    left = leftovers(tmp);
  }
  assert.deepEqual(left, { files: [], processes: [] });
});

test('the server killed mid-run: exit 4, one clear line, partial results saved, nothing left', async () => {
  const { tmp, out } = isolatedDirs();
  let killed = false;
  const { done } = startCli(['--time', '1', '--warmup', '0.2', '--out', out], {
    tmp,
    onStderr: (text) => {
      if (!killed && /\[\s*2\/\d+\]/.test(text)) {
        const server = processesMentioning(tmp).find((p) => /mariadbd/.test(p) && !/watchdog\.js/.test(p));
        if (server) { killed = true; process.kill(Number(server.split(':')[0]), 'SIGKILL'); }
      }
    },
  });
  const r = await done;
  assert.ok(killed, 'the server was killed');
  assert.equal(r.code, 4, r.stderr);
  const [json] = savedResults(out);
  assert.equal(json.complete, false);
  assert.match(json.stoppedBy, /embedded server exited unexpectedly|lost the server/);
  assert.ok(noStackTrace(r.stderr));
  assertNothingLeft(tmp);
});

test('calibrate: per driver and statement, the harness against a bare loop in the same processes, paired, with an interval and an exit code that follows the ratios', async () => {
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['calibrate', '--rounds', '6', '--time', '0.3', '--out', out, '-q'], { tmp });
  assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}: ${r.stderr}`);
  assert.ok(noStackTrace(r.stderr));
  const rows = r.stdout.split('\n').filter((l) => /^│ (do|select_100_cols)\s+│/.test(l) || /^│\s+│ (mysql|mysql2|mariadb)\s+│/.test(l));
  assert.equal(rows.length, 6, r.stdout); // 3 drivers × (do, select_100_cols)
  let low = false;
  for (const line of rows) {
    const m = /(\d+\.\d{3}) \((\d+\.\d{3})–(\d+\.\d{3})\)( LOW)?/.exec(line);
    assert.ok(m, `a ratio with its interval: ${line}`);
    const [ratio, lo, hi] = m.slice(1, 4).map(Number);
    assert.ok(lo <= ratio && ratio <= hi, line);
    assert.equal(Boolean(m[4]), ratio < 0.98, line);
    low ||= ratio < 0.98;
  }
  assert.equal(r.code, low ? 1 : 0, 'exit 1 exactly when a ratio is below 0.98');
  assert.match(r.stdout, /drivers: mysql [^·]*, mysql \(bare loop\) /);
  // Each round, a driver's bare loop ran in the process its harness window ran in.
  const [json] = savedResults(out);
  for (const bench of json.benches) {
    for (const harness of bench.results.filter((row) => !row.driver.endsWith('(bare loop)'))) {
      const bare = bench.results.find((row) => row.driver === `${harness.driver} (bare loop)`);
      const processOf = (row) => new Map(row.rounds.map((w) => [w.round, w.process]));
      assert.deepEqual(processOf(bare), processOf(harness), `${bench.name} ${harness.driver}`);
      assert.ok(new Set(processOf(harness).values()).size > 1, 'the rounds went to several processes');
      assert.equal(bare.latency, null, 'a bare loop times no latency');
    }
  }
  assertNothingLeft(tmp);
});

test('a bench no driver can run ends its rounds at once, and that is not called the time budget; a run where nothing can run is refused', async () => {
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['do', 'execute', '--drivers', 'mysql', '--out', out], { tmp }); // default lengths: the budget is on
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /execute · mysql: n\/a: not supported by driver/);
  assert.doesNotMatch(r.stdout, /time budget.*ended execute/);
  const [json] = savedResults(out);
  assert.equal(json.settings.budget > 0, true, 'the budget was on');
  assert.equal(json.benches.find((b) => b.name === 'execute').budgetStop, undefined);
  const none = await runCli(['execute', '--drivers', 'mysql', '--out', out], { tmp });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^mysql-driver-bench: error: no row of this run can run: execute on mysql; execute on mysql: no prepared statements in this driver — add a driver that has it/);
  assert.equal(none.stderr.trim().split('\n').length, 1, none.stderr);
  assert.equal(savedResults(out).length, 1, 'nothing saved for the refused run');
});

test('a reader that stops early (--help | head) ends the output quietly, exit 0', async () => {
  const { spawn } = await import('node:child_process');
  const { BIN } = await import('../helpers/cli.js');
  const child = spawn(process.execPath, [BIN, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  child.stdout.destroy(); // the reader is gone before the first line, as `head` after its lines
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(code, 0, stderr);
  assert.doesNotMatch(stderr, /EPIPE|Unhandled/);
});
