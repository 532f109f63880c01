// `mysql-driver-bench report <results.json>`: what the run printed (the table and its sections) again,
// a Markdown summary, an HTML page, or the run's forest plot alone as an SVG file.
import { readResults } from '../../results/file.js';
import { renderRun } from '../../reporting/sections.js';
import { renderResultsMarkdown } from '../../reporting/markdown.js';
import { renderResultsHtml } from '../../reporting/html.js';
import { runProfileDiffs } from '../../results/profile-diff.js';
import { forestSvgFile } from '../../reporting/forest.js';
import { EXIT, usageError } from '../../common/errors.js';
import { emitOutputs } from './compare.js';
import { exitCodesHelp } from '../exit-codes.js';

function forestFile(results, file) {
  const svg = forestSvgFile(results);
  if (!svg) throw usageError(`${file} has no paired Δ to draw`, 'the forest plot needs a run of two or more drivers with measured rows');
  return svg;
}

export function registerReport(program, { stdout = process.stdout, stderr = process.stderr, setExitCode = () => {} } = {}) {
  program.command('report')
    .description('render a results file: the table (default), a Markdown summary, or a self-contained HTML page with a chart per bench')
    .argument('<results>', 'a results JSON written by a run (results/<date>.json)')
    .option('--html <file>', "write a self-contained HTML page: a bar chart per bench (ops/s per driver, ± margin of error, baseline marked) and the environment ('-': stdout)")
    .option('--markdown [file]', "write a Markdown summary (table and environment), e.g. for $GITHUB_STEP_SUMMARY ('-' or no value: stdout)")
    .option('--svg <file>', "write the forest plot alone (every paired Δ with its interval) as an SVG file, e.g. for a README or a pull request ('-': stdout)")
    .option('--latency', 'the wide table, as a run with --latency prints it')
    .option('-q, --quiet', 'no table on stderr when stdout carries Markdown, HTML or SVG')
    .option('--debug', 'print stack traces on errors')
    .addHelpText('after', exitCodesHelp('report'))
    .action((file, opts) => {
      const results = readResults(file);
      emitOutputs({
        opts, stdout, stderr,
        text: () => renderRun(results, { color: Boolean(stdout.isTTY) && opts.markdown === undefined && opts.html === undefined && opts.svg === undefined, latency: Boolean(opts.latency) }),
        markdown: () => renderResultsMarkdown(results),
        html: () => renderResultsHtml(results, { profileDiffs: runProfileDiffs(results, file) }),
        svg: () => forestFile(results, file),
        textWithFiles: false,
      });
      setExitCode(EXIT.OK);
    });
}
