// `mysql-driver-bench report <results.json>`: what the run printed (the table and its sections) again,
// a Markdown summary, or an HTML page.
import { readResults } from '../../results/file.js';
import { renderRun } from '../../reporting/sections.js';
import { renderResultsMarkdown } from '../../reporting/markdown.js';
import { renderResultsHtml } from '../../reporting/html.js';
import { EXIT } from '../../common/errors.js';
import { emitOutputs } from './compare.js';

export function registerReport(program, { stdout = process.stdout, stderr = process.stderr, setExitCode = () => {} } = {}) {
  program.command('report')
    .description('render a results file: the table (default), a Markdown summary, or a self-contained HTML page with a chart per bench')
    .argument('<results>', 'a results JSON written by a run (results/<date>.json)')
    .option('--html <file>', "write a self-contained HTML page: a bar chart per bench (ops/s per driver, ± margin of error, baseline marked) and the environment ('-': stdout)")
    .option('--markdown [file]', "write a Markdown summary (table and environment), e.g. for $GITHUB_STEP_SUMMARY ('-' or no value: stdout)")
    .option('--latency', 'the wide table, as a run with --latency prints it')
    .option('-q, --quiet', 'no table on stderr when stdout carries Markdown or HTML')
    .option('--debug', 'print stack traces on errors')
    .action((file, opts) => {
      const results = readResults(file);
      emitOutputs({
        opts, stdout, stderr,
        text: () => renderRun(results, { color: Boolean(stdout.isTTY) && opts.markdown === undefined && opts.html === undefined, latency: Boolean(opts.latency) }),
        markdown: () => renderResultsMarkdown(results),
        html: () => renderResultsHtml(results),
        textWithFiles: false,
      });
      setExitCode(EXIT.OK);
    });
}
