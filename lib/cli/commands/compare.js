// `mysql-driver-bench compare <base.json> <new.json>`: per bench and driver, the change and whether
// it is significant; exit 1 on a significant regression beyond --threshold.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXIT, usageError } from '../../common/errors.js';
import { nonNegativeNumber } from '../options.js';
import { exitCodesHelp } from '../exit-codes.js';
import { readResults } from '../../results/file.js';
import { compareCounts, countIncomparability } from '../../results/compare-counts.js';
import { counterOf } from '../../replay/counters/index.js';
import { compareResults } from '../../results/compare.js';
import { unchangedDrivers } from '../../results/compare-anchor.js';
import { renderComparisonText, renderCountComparisonMarkdown, renderCountComparisonText } from '../../reporting/compare-text.js';
import { renderComparisonMarkdown } from '../../reporting/markdown.js';
import { renderComparisonHtml } from '../../reporting/html.js';

const toStdout = (v) => v === true || v === '-';

/** Write `text` to a file, or say in one line why it cannot be. Returns the absolute path. */
export function writeOutput(file, text, flag) {
  try {
    writeFileSync(file, text);
  } catch (err) {
    throw usageError(`cannot write ${flag} output to '${file}': ${err.code || err.message}`, 'choose a writable path');
  }
  return resolve(file);
}

/** The outputs of `compare` and `report`: the text table goes to stdout unless stdout already carries another. */
export function emitOutputs({ opts, stdout, stderr, text, json, markdown, html, svg, textWithFiles = true }) {
  const onStdout = ['json', 'markdown', 'html', 'svg'].filter((k) => opts[k] !== undefined && toStdout(opts[k]));
  if (onStdout.length > 1) {
    throw usageError(`--${onStdout.join(' and --')} cannot both go to stdout`, 'give all but one of them a file name');
  }
  const outputs = [];
  const names = { json: 'JSON', markdown: 'Markdown', html: 'HTML', svg: 'SVG' };
  for (const [k, render] of [['json', json], ['markdown', markdown], ['html', html], ['svg', svg]]) {
    if (opts[k] === undefined || !render) continue;
    if (toStdout(opts[k])) stdout.write(render());
    else outputs.push(`${names[k]} written to ${writeOutput(opts[k], render(), `--${k}`)}`);
  }
  if (onStdout.length === 0) {
    if (textWithFiles || outputs.length === 0) stdout.write(text());
  } else if (!opts.quiet) stderr.write(text());
  for (const line of outputs) stderr.write(`${line}\n`);
}

export function registerCompare(program, { stdout = process.stdout, stderr = process.stderr, setExitCode = () => {} } = {}) {
  program.command('compare')
    .description("compare two results files: each row's change judged against a driver that did not change (which cancels the host's speed), a geometric mean per driver; warns when the runs are not comparable")
    .argument('<base>', 'results JSON of the reference run (e.g. the main branch, or the older release)')
    .argument('<new>', 'results JSON of the run to judge')
    .option('--threshold <pct>', 'exit 1 when a bench x driver is significantly slower by more than pct % against the anchor, or newly fails its check', nonNegativeNumber('--threshold'))
    .option('--anchor <driver>', "the driver the rows are judged against: one that ran the same code in both runs (default: the baseline when unchanged, else another unchanged driver); 'none' for absolute changes, not judged")
    .option('--json [file]', "write the comparison as JSON ('-' or no value: stdout, which then carries only the JSON)")
    .option('--markdown [file]', "write a Markdown summary, e.g. for a pull request or $GITHUB_STEP_SUMMARY ('-' or no value: stdout)")
    .option('--html <file>', 'write a self-contained HTML page with a chart per bench')
    .option('-q, --quiet', 'no table on stderr when stdout carries JSON or Markdown')
    .option('--debug', 'print stack traces on errors')
    .addHelpText('after', `
Rows are matched by bench and driver label (mysql2, mysql2@3.9.0, ...). The host's speed moves every
row between two runs (by tens of per cent on a shared machine), so a row is judged by the change of
its paired Δ against the anchor, a driver that ran the same code in both runs: that change cancels
the host's speed as far as the drivers scale alike. Its ± combines both runs' intervals of the paired
Δ (rounds and processes) and 0.12 × the anchor's own change (ratios follow the host a little), the
intervals of all judged rows holding together at 95 %; ~ means the interval includes 0. The ops/s Δ column is each row's own change: shown, never judged.
To compare two releases of a driver, measure them as rows of one run (--drivers mysql2@A,mysql2@B).
${exitCodesHelp('compare')}`)
    .action((baseFile, newFile, opts) => {
      const base = readResults(baseFile);
      const next = readResults(newFile);
      assertSameFigure(base, next, baseFile, newFile);
      if (base.settings?.count) return compareCountRuns(base, next, { baseFile, newFile, opts, stdout, stderr, setExitCode });
      assertAnchor(opts.anchor, base, next, baseFile, newFile);
      const c = compareResults(base, next, { threshold: opts.threshold ?? null, baseFile, newFile, anchor: opts.anchor ?? null });
      if (c.rows.length === 0) {
        throw usageError(`'${baseFile}' and '${newFile}' have no bench × driver row measured in both`,
          'compare runs of the same benches and drivers (driver labels must match, e.g. mysql2 and mysql2)');
      }
      if (c.threshold !== null && c.mode === 'absolute') {
        const why = opts.anchor === 'none' ? 'with --anchor none nothing is judged' : `no driver ran the same code in '${baseFile}' and '${newFile}'`;
        throw usageError(`--threshold needs an anchor, a driver that ran the same code in both runs: ${why}, and an absolute change carries the host's speed`,
          'measure the two versions as rows of one run (--drivers mysql2@A,mysql2@B), or add an unchanged driver to both runs');
      }
      for (const w of c.warnings) stderr.write(`mysql-driver-bench: warning: ${w}\n`);
      emitOutputs({
        opts, stdout, stderr,
        text: () => renderComparisonText(c, { color: Boolean(stdout.isTTY) && !opts.json && !opts.markdown }),
        json: () => `${JSON.stringify(c, null, 2)}\n`,
        markdown: () => renderComparisonMarkdown(c),
        html: () => renderComparisonHtml(c),
      });
      setExitCode(c.threshold !== null && c.regressions.length > 0 ? EXIT.ROWS_FAILED : EXIT.OK);
    });
}

/** The figure a run measured: 'client cost' for --replay, its counter's name with --count, else 'end to end'. */
export const figureOf = (results) => results.settings?.replay?.figure ?? 'end to end';

/** A replay run's client cost and an end-to-end figure measure different things: never compared. */
function assertSameFigure(base, next, baseFile, newFile) {
  // A --rate run's rows at a rate are latencies on an open schedule, paired within the run.
  const rated = [[baseFile, base], [newFile, next]].filter(([, r]) => r.settings?.rate).map(([f]) => f);
  if (rated.length) {
    throw usageError(`${rated.map((f) => `'${f}'`).join(' and ')} measured at a fixed rate (--rate): compare judges closed-loop runs`,
      'read a rate run\'s Δ p50 and Δ p99 within it (its rows side by side at each rate), or compare runs without --rate');
  }
  if (figureOf(base) === figureOf(next)) return;
  throw usageError(`'${baseFile}' measured ${figureOf(base)}, '${newFile}' ${figureOf(next)}: figures of different kinds are not compared`,
    'compare a --replay run with a --replay run, and an end-to-end run with an end-to-end run');
}

/** Two --count runs (of one counter: assertSameFigure): refused when counted differently, else judged row by row (no anchor: counts do not follow the host). */
function compareCountRuns(base, next, { baseFile, newFile, opts, stdout, stderr, setExitCode }) {
  const counter = counterOf(base.settings.count);
  const why = countIncomparability(base, next);
  if (why) throw usageError(`'${baseFile}' and '${newFile}' counted ${counter.noun} differently: ${why}`, 'count both runs with the same Node, flags, Valgrind and driver options');
  if (opts.anchor) throw usageError(`--anchor is for timed runs: ${counter.counts} are judged directly`);
  if (opts.html) throw usageError('--html is for timed runs', 'use the text, --markdown or --json output');
  const c = compareCounts(base, next, { threshold: opts.threshold ?? null, baseFile, newFile });
  if (c.rows.length === 0) throw usageError(`'${baseFile}' and '${newFile}' have no bench × driver row counted in both`);
  emitOutputs({
    opts, stdout, stderr,
    text: () => renderCountComparisonText(c),
    json: () => `${JSON.stringify(c, null, 2)}\n`,
    markdown: () => renderCountComparisonMarkdown(c),
  });
  setExitCode(c.threshold !== null && c.regressions.length > 0 ? EXIT.ROWS_FAILED : EXIT.OK);
}

/** --anchor names a driver of both runs (or 'none'). */
function assertAnchor(anchor, base, next, baseFile, newFile) {
  if (anchor === undefined || anchor === 'none') return;
  const names = (r) => (r.drivers ?? []).map((d) => d.name);
  const missing = [[baseFile, base], [newFile, next]].filter(([, r]) => !names(r).includes(anchor)).map(([f]) => f);
  if (missing.length) {
    const unchanged = unchangedDrivers(base, next);
    throw usageError(`--anchor ${anchor}: not a driver of ${missing.join(' and ')}`,
      unchanged.length ? `drivers that ran the same code in both runs: ${unchanged.join(', ')}` : "no driver ran the same code in both runs; '--anchor none' compares absolute figures");
  }
}
