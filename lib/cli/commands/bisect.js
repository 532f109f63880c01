// `mysql-driver-bench bisect`: its options and help; the bisection itself is lib/bisect.js.
import { GIT_PACKAGES } from '../../drivers/git.js';
import { counterNamed, counterNames } from '../../replay/counters/index.js';
import { bisect } from '../../bisect.js';
import { nonNegativeNumber } from '../options.js';
import { exitCodesHelp } from '../exit-codes.js';

const INSTRUCTIONS = counterNamed('instructions');

export function registerBisect(program, { stdout, stderr, env, signal, setExitCode }) {
  program.command('bisect')
    .description("the first commit between --good and --bad where a bench's count moved (instructions, or --count's): binary search over the first-parent line, each commit counted as a git row (--replay --count <what>); exit 0 when found")
    .argument('<repo>', "the driver's git repository (read only: never written to, its checkout untouched)")
    .requiredOption('--good <ref>', 'a commit before the change (a branch, tag or SHA)')
    .requiredOption('--bad <ref>', 'a commit after it, descending from --good')
    .requiredOption('--bench <names>', 'the bench or benches (comma-separated) whose count is the oracle; a commit is bad when any moved')
    .option('--package <name>', `the driver the repository holds (${GIT_PACKAGES.join(', ')}; default: the name in each commit's package.json)`)
    .option('--count <what>', `the oracle's count: ${counterNames().join(', ')} (allocations: bytes allocated per operation, natively, no Valgrind)`, (value) => counterNamed(value).name, INSTRUCTIONS.name)
    .option('--threshold <pct>', "bad means moved by more than this many % from good's count towards bad's (default: nearer bad's count than good's, the step split at its midpoint)", nonNegativeNumber('--threshold'))
    .option('--json <file>', 'write the steps and the answer to this file')
    .option('-o, --out <dir>', 'where the count runs keep their results and replay sets (default: bisect/ in the cache directory)')
    .option('--smoke', 'an eighth of the operations counted: that the bisection runs, not figures to keep (counts of one code moved up to 1.2 % between runs here)')
    .option('-q, --quiet', 'no progress lines on stderr')
    .option('--debug', 'print stack traces on errors')
    .addHelpText('after', `
Example (the commit that made mysql2's \`do\` need more instructions between two tags):
  $ mysql-driver-bench bisect ../node-mysql2 --good v3.9.0 --bad v3.9.7 --bench do

Each step counts one commit (and the first, good and bad together) as a run would:
  mysql-driver-bench do --replay --count instructions --drivers <pkg>@git:<repo>#<commit>

The commit that changed the bytes \`do\` allocates, in seconds and without Valgrind:
  $ mysql-driver-bench bisect ../node-mysql2 --good v3.9.0 --bad v3.9.7 --bench do --count allocations`)
    .addHelpText('after', exitCodesHelp('bisect'))
    .action(async (repoPath, opts) => setExitCode(await bisect(repoPath, opts, { stdout, stderr, env, signal })));
}
