// `mysql-driver-bench profile`: where the instructions went between two counted rows, from their kept
// callgrind profiles (replay/profiles.js): two rows of one run (--a, --b), or one row in two runs (--driver).
import { EXIT, usageError } from '../../common/errors.js';
import { exitCodesHelp } from '../exit-codes.js';
import { readResults } from '../../results/file.js';
import { diffCosts, rowCosts } from '../../results/profile-diff.js';
import { renderProfileDiff } from '../../reporting/profile-text.js';

export function registerProfile(program, { stdout, setExitCode = () => {} }) {
  program.command('profile')
    .description('the functions whose instructions per operation changed most between two counted rows (--replay --count instructions)')
    .argument('<results...>', 'one results file (two of its rows: --a, --b) or two (the same row: --driver)')
    .requiredOption('--bench <name>', 'the bench')
    .option('--a <driver>', 'the first row (one results file)')
    .option('--b <driver>', 'the second row (one results file)')
    .option('--driver <driver>', 'the row, in both results files')
    .option('--top <n>', 'how many functions', '15')
    .option('--debug', 'print stack traces on errors')
    .addHelpText('after', `
Each counted row keeps its callgrind profile under <out>/profiles/ (the results file's count.profile);
the oldest are pruned past 256 MB. A row without one, or whose profile was pruned, is refused in one line.
${exitCodesHelp('profile')}`)
    .action((files, opts) => {
      const top = Number(opts.top);
      if (!(Number.isInteger(top) && top > 0)) throw usageError(`--top ${opts.top}: a whole number above 0`);
      let pair;
      if (files.length === 1) {
        if (!opts.a || !opts.b) throw usageError('profile <results.json> compares two rows of the run: give --a <driver> and --b <driver>');
        const results = readResults(files[0]);
        pair = [[results, files[0], opts.a], [results, files[0], opts.b]];
      } else if (files.length === 2) {
        if (!opts.driver) throw usageError('profile <base.json> <new.json> compares one row in two runs: give --driver <driver>');
        pair = files.map((f) => [readResults(f), f, opts.driver]);
      } else throw usageError('profile takes one results file (with --a, --b) or two (with --driver)');
      const [x, y] = pair.map(([results, file, driver]) => rowCosts(results, file, opts.bench, driver));
      const labels = files.length === 1 ? { a: opts.a, b: opts.b } : { a: `${opts.driver} (base)`, b: `${opts.driver} (new)` };
      stdout.write(`${opts.bench}: ${renderProfileDiff(diffCosts(x, y, { top }), labels)}\n`);
      setExitCode(EXIT.OK);
    });
}
