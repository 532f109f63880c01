// What the bench catalogue adds around the runner's matrix: concurrency levels (lib/scaling.js),
// the streaming section (lib/streaming.js), the prepared-statement metadata section
// (lib/metadata-probe.js), bench options, and the text sections printed after the main table.
import Table from 'cli-table3';
import { fmtInt, fmtOps, fmtPct } from '../reporting/format.js';
import { forEachLevel, renderScaling } from './scaling.js';
import { renderStreaming, runStreamingProbe } from '../../benchs/stream_rows/probe.js';
import { renderMetadata, runMetadataProbe } from '../../benchs/execute_metadata/probe.js';
import { DEFAULT_ACCOUNTS } from '../../benchs/transfer/workload.js';
import { STREAM_SIZES } from '../../benchs/stream_rows/index.js';

const has = (benches, ...names) => benches.some((b) => names.includes(b.name));

/** Options benches read from their context (`ctx.options`), from the command line's. */
export function benchOptions(opts = {}) {
  return { transferAccounts: opts.transferAccounts ?? DEFAULT_ACCOUNTS };
}

const isAbort = (err, signal) => signal?.aborted || err?.name === 'AbortError';

/**
 * Run the matrix once per concurrency level (`runLevel(levelSettings)` is the runner call), then the
 * sections the runner cannot express. Section failures are recorded in the results, not thrown;
 * an abort (Ctrl-C, server lost) is.
 */
export async function runCatalogue({ opts, settings, results, benches, drivers, admin, target, context, signal, log = () => {} }, runLevel) {
  context.options = { ...context.options, ...benchOptions(opts) };
  if (has(benches, 'transfer')) results.settings.transferAccounts = context.options.transferAccounts;

  await forEachLevel(settings, results, runLevel);

  if (has(benches, 'stream_rows')) {
    log(`streaming section: ${STREAM_SIZES.join(', ')} rows × ${drivers.length} driver(s) × fetch-all/stream, one child process each`);
    try {
      results.streaming = await runStreamingProbe({ drivers, target, settings, sizes: STREAM_SIZES, signal, log });
    } catch (err) {
      if (isAbort(err, signal)) throw signal?.reason ?? err;
      results.streaming = { error: err?.message ?? String(err) };
    }
  }
  if (has(benches, 'execute_metadata', 'execute_metadata_changing')) {
    try {
      results.metadata = await runMetadataProbe({ drivers, target, admin, server: context.server });
    } catch (err) {
      if (isAbort(err, signal)) throw signal?.reason ?? err;
      results.metadata = { error: err?.message ?? String(err) };
    }
  }
}

const ms = (us) => (Number.isFinite(us) ? (us / 1000).toFixed(2) : '-');

/** Pure: the transfer section ('' when the run has no transfer rows). */
export function renderTransfer(results) {
  const entries = (results.benches ?? []).filter((b) => b.name === 'transfer');
  if (entries.length === 0) return '';
  const head = ['workers', 'driver', 'tx/s', '± rme', 'p50 ms', 'p95 ms', 'p99 ms', 'committed', 'retries', 'deadlocks', 'lock timeouts', 'money check'];
  const table = new Table({ head, style: { head: [], border: [], compact: true }, colAligns: ['right', 'left', ...head.slice(2, -1).map(() => 'right'), 'left'] });
  for (const entry of entries) {
    entry.results.forEach((r, i) => {
      const level = i === 0 ? String(entry.concurrency ?? results.settings?.concurrency ?? '') : '';
      if (!r.ok) {
        table.push([level, r.driver, r.status === 'n/a' ? 'n/a' : 'FAILED', '', '', '', '', '', '', '', '', r.status === 'n/a' ? '' : r.error]);
        return;
      }
      const w = r.workload ?? {};
      table.push([level, r.driver, fmtOps(r.opsPerSec), fmtPct(r.rme), ms(r.latency?.p50), ms(w.p95), ms(r.latency?.p99),
        fmtInt(w.committed), fmtInt(w.retries), fmtInt(w.deadlocks), fmtInt(w.lockWaitTimeouts), 'passed']);
    });
  }
  const accounts = results.settings?.transferAccounts;
  return `transfer · payments transactions (8 statements each) on ${accounts ? `${fmtInt(accounts)} ` : ''}accounts · `
    + 'money check after every window: each balance = seed + its transfers, sum unchanged, transfer rows = committed\n'
    + `${table.toString()}\n`;
}

/** Pure: every catalogue section of a results object, to print after the main table. */
export function renderCatalogue(results) {
  return [renderScaling(results), renderTransfer(results), renderStreaming(results), renderMetadata(results)].filter(Boolean).join('');
}

/** Did a catalogue section fail a check (a streaming figure or a metadata probe)? n/a is not a failure. */
export function catalogueFailed(results) {
  const failed = (rows) => (rows ?? []).some((r) => r.status === 'failed');
  return Boolean(results?.streaming?.error || results?.metadata?.error
    || failed(results?.streaming?.rows) || failed(results?.metadata?.drivers));
}
