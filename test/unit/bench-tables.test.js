// The connection and data-type benches in every report (no server): their rows with the cost per
// operation (client CPU per connection), and their own tables (connections, representations) in the
// terminal, Markdown and HTML; and which benches a run with none named measures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTable, renderBenchList } from '../../lib/reporting/table.js';
import { renderResultsMarkdown } from '../../lib/reporting/markdown.js';
import { renderResultsHtml } from '../../lib/reporting/html.js';
import { applyDeltas } from '../../lib/results/deltas.js';
import { createResults } from '../../lib/results/file.js';
import { BENCHES, DEFAULT_BENCHES, selectBenches } from '../../benchs/index.js';
import connect, { connectTls, sslOptionsFor } from '../../benchs/connect.js';
import selectTypes from '../../benchs/select_types.js';
import { notApplicableReason } from '../../lib/measuring/bench/plan.js';

const NEW = ['connect', 'connect_tls', 'select_types'];

function fixture() {
  const r = createResults({
    startedAt: new Date('2026-01-01T00:00:00Z'),
    env: { node: 'v20.0.0', platform: 'linux', arch: 'x64', cpuModel: 'Test CPU', cpus: 2 },
    server: { version: '10.11.0-MariaDB', kind: 'mariadb', embedded: true },
    drivers: ['mysql', 'mysql2', 'mariadb'].map((name) => ({ name, version: '1.0.0' })),
    settings: { baseline: 'mysql', concurrency: 1, time: 3, warmup: 1, rounds: 3, mode: 'default' },
  });
  const ok = (driver, opsPerSec, protocol, cost, workload) => ({
    driver, protocol, ok: true, status: 'ok', error: null, opsPerSec, rme: 2.5, samples: 20,
    sampleOpsPerSec: Array.from({ length: 6 }, (_, i) => opsPerSec * (1 + ((i % 3) - 1) / 100)),
    latency: { p50: 800, p90: 900, p99: 1500, max: 9000 },
    rounds: Array.from({ length: 6 }, (_, i) => ({ round: i, opsPerSec })),
    cost, workload,
  });
  const tlsWork = (checks) => ({ connections: 900, verifiedConnections: 7, tls: { version: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384' }, certificateCheck: checks });
  const rows = {
    connect: [ok('mysql', 1500, 'text, new connection', { clientCpuUsPerOp: 412.5, gcMsPer1000Ops: 3.25, serverCpuUsPerOp: 210 }, { connections: 900, tls: null }),
      ok('mysql2', 1700, 'text, new connection', { clientCpuUsPerOp: 377.1, gcMsPer1000Ops: 2.5, serverCpuUsPerOp: 205 }, { connections: 900, tls: null }),
      ok('mariadb', 1900, 'text, new connection', { clientCpuUsPerOp: 333.3, gcMsPer1000Ops: 1.5, serverCpuUsPerOp: 201 }, { connections: 900, tls: null })],
    connect_tls: [ok('mysql', 400, 'text, new TLS connection', { clientCpuUsPerOp: 1923.4, gcMsPer1000Ops: 9.5, serverCpuUsPerOp: 880 }, tlsWork('chain only (mysql has no host-name check)')),
      ok('mysql2', 420, 'text, new TLS connection', { clientCpuUsPerOp: 1801.2, gcMsPer1000Ops: 8.5, serverCpuUsPerOp: 870 }, tlsWork('chain and host name (ssl.verifyIdentity)')),
      { driver: 'mariadb', protocol: 'n/a', ok: false, status: 'failed', error: 'connect_tls: the connection is not encrypted' }],
    select_types: [ok('mysql', 120, 'text', { clientCpuUsPerOp: 8123.4, gcMsPer1000Ops: 55.5, serverCpuUsPerOp: 900 },
      { representations: { DATETIME: 'Date', BIGINT: 'string', JSON: 'string' }, driverOptions: { timezone: '+00:00', supportBigNumbers: true, bigNumberStrings: true } }),
    ok('mysql2', 130, 'text', { clientCpuUsPerOp: 7001.1, gcMsPer1000Ops: 66.5, serverCpuUsPerOp: 900 },
      { representations: { DATETIME: 'Date', BIGINT: 'number/string', JSON: 'parsed JSON' }, driverOptions: { timezone: '+00:00', supportBigNumbers: true } }),
    ok('mariadb', 110, 'text', { clientCpuUsPerOp: 9002.2, gcMsPer1000Ops: 77.5, serverCpuUsPerOp: 900 },
      { representations: { DATETIME: 'Date', BIGINT: 'BigInt', JSON: 'parsed JSON' }, driverOptions: { timezone: '+00:00' } })],
  };
  for (const bench of [connect, connectTls, selectTypes]) {
    r.benches.push({ name: bench.name, title: bench.title, sql: bench.sql, results: rows[bench.name], tables: bench.tables(rows[bench.name]) });
  }
  r.complete = true;
  return applyDeltas(r);
}

test('the terminal table shows the new benches and their own tables: connections and representations', () => {
  const text = renderTable(fixture());
  for (const name of NEW) assert.match(text, new RegExp(`│ ${name} `));
  assert.match(text, /connect · connections: the cost of one/);
  assert.match(text, /│ mysql\s+│ 1,500\s+│ 413\s+│ 3\.25\s+│ 210\s+│ none/);
  assert.match(text, /connect_tls · TLS connections/);
  assert.match(text, /│ mysql2\s+│ 420\s+│ 1,801\s+│ 8\.50\s+│ 870\s+│ TLSv1\.3 TLS_AES_256_GCM_SHA384 │ chain and host name \(ssl\.verifyIdentity\)/);
  assert.match(text, /│ mariadb\s+│ FAILED/);
  assert.match(text, /select_types · representations/);
  assert.match(text, /│ BIGINT\s+│ string\s+│ number\/string\s+│ BigInt\s+│/);
  assert.match(text, /│ JSON\s+│ string\s+│ parsed JSON\s+│ parsed JSON\s+│/);
  assert.match(text, /│ driver options │ timezone '\+00:00', supportBigNumbers, bigNumberStrings │/);
  // --latency: the cost columns, for the new rows too.
  const wide = renderTable(fixture(), { latency: true });
  assert.match(wide, /cpu µs\/op/);
  assert.match(wide, /│ connect_tls\s+│ mysql\s+│ text, new TLS connection\s+│ .*│\s+1,923 │\s+9\.50 │\s+880 │/);
});

test('Markdown: the new rows with client CPU and GC per operation, and the representations table', () => {
  const md = renderResultsMarkdown(fixture());
  assert.match(md, /\| connect \| mysql \| text, new connection \| 1,500 \| 2\.5 % \| 20 \| 800 \| 1,500 \| 413 \| 3\.25 \| 210 \| baseline \|/);
  assert.match(md, /\| connect_tls \| mysql \| text, new TLS connection \| 400 \| .* \| 1,923 \| 9\.50 \| 880 \| baseline \|/);
  assert.match(md, /\| select_types \| mysql \| text \| 120 \| .* \| 8,123 \| 55\.50 \| 900 \| baseline \|/);
  assert.match(md, /#### select_types · representations: the JavaScript value each driver returned per column type/);
  assert.match(md, /\| column type \| mysql \| mysql2 \| mariadb \|/);
  assert.match(md, /\| BIGINT \| string \| number\/string \| BigInt \|/);
  assert.match(md, /#### connect_tls · TLS connections/);
  assert.match(md, /\| mysql \| 400 \| 1,923 \| 9\.50 \| 880 \| TLSv1\.3 TLS_AES_256_GCM_SHA384 \| chain only \(mysql has no host-name check\) \|/);
});

test('HTML: a section per new bench with its chart, cost columns and own table', () => {
  const html = renderResultsHtml(fixture());
  for (const name of NEW) assert.match(html, new RegExp(`<section class="bench" id="bench-${name}">`));
  assert.match(html, /<td class="num">1,923<\/td><td class="num">9\.50<\/td><td class="num">880<\/td>/);
  assert.match(html, /<h3>representations: the JavaScript value each driver returned per column type<\/h3>/);
  assert.match(html, /<tr><td>BIGINT<\/td><td>string<\/td><td>number\/string<\/td><td>BigInt<\/td><\/tr>/);
  assert.match(html, /<td class="failed">FAILED<\/td>/);
  assert.doesNotMatch(html, /<script|https?:/i);
});

test('the new benches run only when named, and list says so', () => {
  const names = DEFAULT_BENCHES.map((b) => b.name);
  for (const n of NEW) {
    assert.ok(!names.includes(n), `${n} is not in the default run`);
    assert.ok(BENCHES.some((b) => b.name === n), `${n} is registered`);
  }
  assert.deepEqual(selectBenches([]).map((b) => b.name), names);
  assert.deepEqual(selectBenches(NEW).map((b) => b.name), NEW);
  const drivers = [{ name: 'mysql', packageName: 'mysql', capabilities: {} }];
  const list = renderBenchList(BENCHES, drivers, { schema: 's', server: { kind: 'mariadb' }, tls: { available: true, ca: null } });
  for (const n of NEW) assert.match(list, new RegExp(`│ ${n}\\s+│`));
  assert.equal((list.match(/\(when named\)/g) ?? []).length, BENCHES.filter((b) => b.inDefaultRun === false).length + 1);
  assert.match(list, /not in the default run .* mysql-driver-bench connect connect_tls select_types/);
});

test('connect_tls: n/a with the reason when the run has no TLS; the certificate is verified, never skipped', () => {
  const driver = { name: 'mysql2', packageName: 'mysql2', capabilities: {} };
  const reason = 'the server at db:3306 does not offer TLS (have_ssl DISABLED): give it ssl_cert and ssl_key, or run against the embedded server';
  assert.equal(notApplicableReason(connectTls.plan(driver, { tls: { available: false, reason } })), reason);
  assert.equal(notApplicableReason(connect.plan(driver, {})), null);
  const plan = connectTls.plan(driver, { tls: { available: true, ca: 'PEM' } });
  assert.deepEqual(plan.connectOptions, { ssl: { ca: 'PEM', rejectUnauthorized: true, verifyIdentity: true } });
  assert.equal(plan.connects, true);
  for (const packageName of ['mysql', 'mariadb', 'my-adapter']) {
    assert.deepEqual(sslOptionsFor({ packageName }, { available: true, ca: 'PEM' }), { ca: 'PEM', rejectUnauthorized: true });
  }
  // A remote server without DB_SSL_CA: Node's trusted CAs, still verified.
  assert.deepEqual(sslOptionsFor({ packageName: 'mariadb' }, { available: true, ca: null }), { rejectUnauthorized: true });
});
