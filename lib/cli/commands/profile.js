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
    .option('--a <driver>', 'the first row (of the one results file, or of the first of two)')
    .option('--b <driver>', 'the second row (of the one results file, or of the second of two)')
    .option('--driver <driver>', 'the row, in both results files')
    .option('--top <n>', 'how many functions', '15')
    .option('--by <measure>', "rank by 'self' (the instructions in each function itself) or 'inclusive' (with what it calls: which of a driver's functions the engine's work came from)", 'self')
    .option('--debug', 'print stack traces on errors')
    .addHelpText('after', `
Each counted row keeps its callgrind profile under <out>/profiles/ (the results file's count.profile);
the oldest are pruned past 256 MB. A row without one, or whose profile was pruned, is refused in one line.
${exitCodesHelp('profile')}`)
    .action((files, opts) => {
      const top = Number(opts.top);
      if (!(Number.isInteger(top) && top > 0)) throw usageError(`--top ${opts.top}: a whole number above 0`);
      if (!['self', 'inclusive'].includes(opts.by)) throw usageError(`--by ${opts.by}: 'self' or 'inclusive'`);
      let pair;
      if (files.length === 1) {
        if (!opts.a || !opts.b) throw usageError('profile <results.json> compares two rows of the run: give --a <driver> and --b <driver>');
        const results = readResults(files[0]);
        pair = [[results, files[0], opts.a], [results, files[0], opts.b]];
      } else if (files.length === 2) {
        // One row in two runs (--driver), or a row of each run (--a in the first, --b in the second: two commits' labels).
        const rows = opts.driver ? [opts.driver, opts.driver] : [opts.a, opts.b];
        if (!rows[0] || !rows[1]) throw usageError('profile <base.json> <new.json> compares a row of each run: give --driver <driver>, or --a <driver> and --b <driver>');
        pair = files.map((f, i) => [readResults(f), f, rows[i]]);
      } else throw usageError('profile takes one results file (with --a, --b) or two (with --driver, or --a and --b)');
      const [x, y] = pair.map(([results, file, driver]) => rowCosts(results, file, opts.bench, driver));
      const labels = files.length === 2 && opts.driver ? { a: `${opts.driver} (base)`, b: `${opts.driver} (new)` } : { a: opts.a, b: opts.b };
      stdout.write(`${opts.bench}: ${renderProfileDiff(diffCosts(x, y, { top, by: opts.by }), { ...labels, by: opts.by })}\n`);
      setExitCode(EXIT.OK);
    });
}
