// The exit codes a command's --help lists: each code's meaning written once, and per command the codes
// it can return, with what its 0, 1, 2 or 4 mean there. README.md and docs/usage.md give the same
// codes, and test/integration/exit-codes.test.js holds the three to the codes the code returns.
import { EXIT } from '../common/errors.js';

const MEANING = {
  [EXIT.USAGE]: 'bad usage: unknown bench or driver, invalid number, unwritable --out, unusable input',
  [EXIT.SETUP]: 'the server could not be started, reached, logged into or prepared (nothing was measured)',
  [EXIT.ABORTED]: 'the run stopped part-way (the server was lost); the rows measured so far are saved',
  [EXIT.INSTALL]: 'something the run needs could not be installed: npm dependencies, mariadbd, Valgrind, git, '
    + "a driver release or runtime from the npm registry, a git commit's dependencies (nothing was measured)",
  [EXIT.UNEXPECTED]: 'a bug: an error the harness did not foresee (--debug prints its stack; please report it)',
  [EXIT.INTERRUPTED]: 'interrupted by Ctrl-C: everything cleaned up, the rows measured so far saved',
  [EXIT.TERMINATED]: 'the same, by SIGTERM',
  [EXIT.HUNG_UP]: 'the same, by SIGHUP (the terminal closed)',
};

const DEPENDENCIES = 'the npm dependencies are not installed (run npm ci)';

/** A measuring command's codes: its own 0 and 1, then the server, install and signal codes. */
const measuring = (ok, rowsFailed) => [[EXIT.OK, ok], [EXIT.ROWS_FAILED, rowsFailed],
  EXIT.USAGE, EXIT.SETUP, EXIT.ABORTED, EXIT.INSTALL, EXIT.UNEXPECTED, EXIT.INTERRUPTED, EXIT.TERMINATED, EXIT.HUNG_UP];

/** Per command, the codes it can return: a code alone takes MEANING's words, [code, words] its own. */
export const COMMAND_EXIT_CODES = {
  run: measuring('every row measured and checked (n/a rows are not failures)',
    'a row failed its check or its driver errored, or (with --threshold) is slower than the baseline beyond it (REGRESSION: lines)'),
  aa: measuring('every row measured and checked, and no A/A difference called significant',
    'a row failed its check or errored, or the A/A called a difference significant'),
  calibrate: measuring('every row measured and checked, and every harness/bare ratio at least 0.98 (with --count: estimated cycles '
    + 'track time within the target on held-out rows, from at least 3 sittings)',
  'a row failed its check or errored, or a harness/bare ratio is below 0.98 (with --count: the target missed, or fewer than 3 sittings)'),
  compare: [[EXIT.OK, 'compared; no significant regression beyond --threshold (or no threshold)'],
    [EXIT.ROWS_FAILED, 'a judged row is significantly slower beyond --threshold, or newly fails its check'],
    [EXIT.USAGE, 'unusable input: a missing or unreadable file, not a results file, no row in common, an --anchor not in '
      + 'both runs, or --threshold with no driver that ran the same code in both'],
    [EXIT.INSTALL, DEPENDENCIES], EXIT.UNEXPECTED],
  report: [[EXIT.OK, 'rendered'],
    [EXIT.USAGE, 'a missing or unreadable file, not a results file, an unwritable output, nothing to draw for --svg'],
    [EXIT.INSTALL, DEPENDENCIES], EXIT.UNEXPECTED],
  merge: [[EXIT.OK, 'merged; every shard had finished its run'],
    [EXIT.USAGE, "a missing or repeated shard, a file that is not a shard's, shards of different code, drivers, settings "
      + 'or server, an unwritable output: nothing is written'],
    [EXIT.ABORTED, "a shard's run had stopped part-way: the merged file is saved, marked incomplete"],
    [EXIT.INSTALL, DEPENDENCIES], EXIT.UNEXPECTED],
  'ci-driver': [[EXIT.OK, 'no bench needs more instructions (or --count\'s figure) per operation at the head than at the base beyond --threshold'],
    [EXIT.ROWS_FAILED, 'a bench needs more beyond --threshold (a REGRESSION: line each), or a row failed its check'],
    [EXIT.USAGE, 'bad usage: a ref that does not exist, a directory that is not a git repository, base and head the same commit, base and head with no common history or a head already in the base, a --comment or --artifact place that cannot be written'],
    EXIT.SETUP, EXIT.ABORTED, EXIT.INSTALL, EXIT.UNEXPECTED, EXIT.INTERRUPTED, EXIT.TERMINATED, EXIT.HUNG_UP],
  profile: [[EXIT.OK, 'the two rows\' profiles compared'],
    [EXIT.USAGE, 'unusable input: a missing or unreadable file, not a results file, no such row, a row not counted, '
      + 'or a row whose profile was never kept or was pruned'],
    [EXIT.INSTALL, DEPENDENCIES], EXIT.UNEXPECTED],
  bisect: [[EXIT.OK, 'found: the first commit where a bench\'s count moved, its Δ against its parent and its subject on stdout'],
    [EXIT.ROWS_FAILED, 'not found: good and bad do not differ beyond the noise floor (or --threshold), or only skipped commits '
      + 'are left where the first moved commit lies (each named)'],
    [EXIT.USAGE, 'bad usage: a ref that does not exist, good not an ancestor of bad (the wrong order), good and bad one commit, '
      + 'a bench good or bad cannot run'],
    EXIT.SETUP, EXIT.ABORTED, EXIT.INSTALL, EXIT.UNEXPECTED, EXIT.INTERRUPTED, EXIT.TERMINATED, EXIT.HUNG_UP],
  record: [[EXIT.OK, 'every release asked for is in the record (counted, or a row that failed, said in the record)'],
    [EXIT.USAGE, 'bad usage: an unknown driver, a version that is not x.y.z, a --dir file that is not a record'],
    EXIT.SETUP, EXIT.ABORTED, EXIT.INSTALL, EXIT.UNEXPECTED, EXIT.INTERRUPTED, EXIT.TERMINATED, EXIT.HUNG_UP],
  list: [[EXIT.OK, 'listed'], [EXIT.USAGE, 'an unknown driver, or a release or runtime the npm registry lacks'],
    [EXIT.INSTALL, 'the npm dependencies, or a driver release, runtime or git commit named in --drivers, could not be installed'],
    EXIT.UNEXPECTED],
};

const WIDTH = 100;

/** Pure: `text` in lines of at most WIDTH columns, the first after `lead`, the rest indented as far. */
function hang(lead, text) {
  const lines = [];
  let line = lead;
  for (const word of text.split(' ')) {
    if (line.length > lead.length && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = ' '.repeat(lead.length) + word;
    } else line += line.length > lead.length ? ` ${word}` : word;
  }
  return [...lines, line].join('\n');
}

/** The `Exit codes:` section of a command's --help (text for commander's addHelpText). */
export function exitCodesHelp(command) {
  const codes = COMMAND_EXIT_CODES[command].map((c) => (Array.isArray(c) ? c : [c, MEANING[c]]));
  const width = Math.max(...codes.map(([code]) => String(code).length));
  return `\nExit codes:\n${codes.map(([code, words]) => hang(`  ${String(code).padEnd(width)}  `, words)).join('\n')}`;
}
