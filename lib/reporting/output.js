// Where a run's report goes: the rendered report on stdout (with --json - the JSON there instead, and
// the report on stderr), then on stderr one line each for the harness's own health, the host's steal
// when it took CPU time, and where the results were saved.
import { serialize } from '../results/file.js';

/** One line on the harness's own health: its memory over the run and the server's connection count. */
export function describeHealth(h) {
  const connections = h.threadsConnectedAfter === undefined || h.threadsConnectedAfter === null ? '' : `; server connections ${h.threadsConnectedBefore} before, ${h.threadsConnectedAfter} after`;
  return `harness memory: RSS ${h.rssStartMB} → ${h.rssEndMB} MB (peak ${h.rssPeakMB}), V8 heap used ${h.heapUsedStartMB} → ${h.heapUsedEndMB} MB${connections}`;
}

/**
 * Write a finished (or stopped) run's report. `render(results, { color, latency })` is the pure
 * renderer (reporting/sections.js renderRun, or a command's own); `file` is where the results were saved;
 * `output`: { json, quiet, latency } as the run's plan resolved them (resolve-run.js).
 */
export function printRun({ results, file, output, stdout, stderr, render }) {
  const jsonToStdout = output.json === true || output.json === '-';
  const table = render(results, { color: !jsonToStdout && stdout.isTTY, latency: output.latency });
  if (jsonToStdout) {
    stdout.write(serialize(results));
    if (!output.quiet) stderr.write(table);
  } else {
    stdout.write(table);
  }
  if (results.health && !output.quiet) stderr.write(`${describeHealth(results.health)}\n`);
  if (results.host?.stealPct >= 1) {
    stderr.write(`host: the hypervisor stole ${results.host.stealPct} % of this machine's CPU time during the run `
      + `(I/O wait ${results.host.iowaitPct} %): figures from a contended host; compare runs only with similar figures here\n`);
  }
  if (results.complete) stderr.write(`results saved to ${file}\n`);
  else stderr.write(`mysql-driver-bench: stopped: ${results.stoppedBy} — the rows measured so far are saved to ${file}\n`);
}
