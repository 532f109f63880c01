// `mysql-driver-bench ci-driver`: its options and help; the gate itself is lib/gate.js.
import { CI_DRIVER_BENCHES, CI_DRIVER_COUNT, CI_DRIVER_THRESHOLD, ciDriver, docsUrl } from '../../gate.js';
import { GIT_PACKAGES } from '../../drivers/git.js';
import { ACCEPT_LABEL } from '../../reporting/gate-comment.js';
import { counterNamed, counterNames } from '../../replay/counters/index.js';
import { nonNegativeNumber } from '../options.js';
import { exitCodesHelp } from '../exit-codes.js';

export function registerCiDriver(program, { stdout, stderr, env, signal, setExitCode, runRows }) {
  program.command('ci-driver')
    .description("a driver repository's pull-request gate: its head and the head's merge-base with --base as two rows of one count run (instructions, or --count's); exit 1 when a bench needs more than --threshold % more of it per operation")
    .argument('[bench...]', `benches to count (default: ${CI_DRIVER_BENCHES.join(' ')})`)
    .option('--repo <dir>', "the driver's git repository (read only: never written to)", '.')
    .requiredOption('--base <ref>', "the base: a branch, tag or SHA (in GitHub Actions: github.event.pull_request.base.sha, the base branch's tip); the head is judged against their merge-base, where its branch left the base")
    .option('--head <ref>', 'the commit to judge', 'HEAD')
    .option('--package <name>', `the driver the repository holds (${GIT_PACKAGES.join(', ')}; default: the name in the head commit's package.json)`)
    .option('--count <what>', `what to count: ${counterNames().join(', ')} (allocations: bytes allocated per operation, natively, no Valgrind, no profiles)`, (value) => counterNamed(value).name, CI_DRIVER_COUNT)
    .option('--threshold <pct>', 'fail when a bench needs more than this many per cent more of the count per operation (beyond the noise floor)', nonNegativeNumber('--threshold'), CI_DRIVER_THRESHOLD)
    .option('--summary <file>', 'append the verdict and the Markdown report to this file (default: $GITHUB_STEP_SUMMARY when set)')
    .option('-o, --out <dir>', 'where the results JSON and the replay sets go (default: ci-driver/ in the cache directory, outside the repository)')
    .option('--comment <file>', "write the pull request's comment here (Markdown; scripts/pr-comment.js posts it): one line when no bench moved, else the verdict, the table and the profile command")
    .option('--artifact <dir>', 'copy what a reviewer reads after the run here: the results JSON, its rows\' kept profiles and the replay sets (outside --out; action.yml uploads it)')
    .option('--accepted-by <who>', 'report a regression and pass (exit 0): the override label was applied, by this person (the action passes @login); a failed row still fails')
    .option('--accept-label <name>', 'the override label the comment names', ACCEPT_LABEL)
    .option('--docs-url <url>', "where the comment's links point: the docs of the version that ran", docsUrl())
    .option('--history <file>', "the base branch's stored history (a file ci-driver keeps, or a count run's results over a commit range): each bench's floor becomes its fence from the last 30 steps there where that is wider, and the merge-base's figures are added to the file", (v) => v)
    .option('--no-bytes', `count no bytes allocated per operation beside instructions (by default they are, natively, in seconds: a bench that moved with less than half of its change in the driver's own functions and its bytes unchanged is V8's, said and not failed)`)
    .option('--smoke', 'an eighth of the operations counted: that the gate runs, not figures to keep')
    .option('-q, --quiet', 'no progress lines on stderr')
    .option('--debug', 'print stack traces on errors')
    .addHelpText('after', `
Example (in a clone of node-mysql2, a pull request's branch checked out):
  $ mysql-driver-bench ci-driver --base origin/master

It runs, with both commits extracted and installed in the cache (the repository is only read),
<merge-base> the output of git merge-base <base> <head>:
  mysql-driver-bench ${CI_DRIVER_BENCHES.join(' ')} --replay --count instructions --jit-names \\
    --drivers <pkg>@git:<repo>#<merge-base>,<pkg>@git:<repo>#<head> --baseline <pkg>@git:<repo>#<merge-base> --threshold 1

The allocation gate, in seconds and without Valgrind (bytes allocated and writes per operation):
  $ mysql-driver-bench ci-driver --base origin/master --count allocations`)
    .addHelpText('after', exitCodesHelp('ci-driver'))
    .action(async (benchNames, opts) => setExitCode(await ciDriver(benchNames, opts, { stdout, stderr, env, signal, run: runRows })));
}
