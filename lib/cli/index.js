// The command line: the program and its commands (commands/), each registering itself; main() parses
// argv, runs, and turns every error into one line and an exit code.
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { EXIT } from '../common/errors.js';
import { sayError } from '../common/error-line.js';
import { registerRun } from './commands/run.js';
import { registerAa } from './commands/aa.js';
import { registerCalibrate } from './commands/calibrate.js';
import { registerList } from './commands/list.js';
import { registerCompare } from './commands/compare.js';
import { registerReport } from './commands/report.js';
import { registerMerge } from './commands/merge.js';
import { registerCiDriver } from './commands/ci-driver.js';
import { registerProfile } from './commands/profile.js';
import { registerBisect } from './commands/bisect.js';
import { registerRecord } from './commands/record.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

export function buildProgram({ stdout = process.stdout, stderr = process.stderr, env = process.env, signal, argv } = {}) {
  const program = new Command();
  let exitCode = EXIT.OK;
  program
    .name('mysql-driver-bench')
    .description('Benchmark the Node.js MySQL-protocol drivers (mysql, mysql2, mariadb) doing the same work against the same server.')
    .version(version, '-V, --version', 'print the harness\'s version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => stdout.write(s), writeErr: (s) => stderr.write(s) })
    .showHelpAfterError('(see mysql-driver-bench --help)')
    .enablePositionalOptions();

  const io = { stdout, stderr, env, signal, argv, setExitCode: (code) => { exitCode = code; } };
  registerRun(program, io);
  registerAa(program, io);
  registerCalibrate(program, io);
  registerList(program, io);
  registerCompare(program, io);
  registerReport(program, io);
  registerMerge(program, io);
  registerCiDriver(program, io);
  registerProfile(program, io);
  registerBisect(program, io);
  registerRecord(program, io);
  return { program, exitCode: () => exitCode };
}

/** Parse argv, run, return the exit code. Never throws. */
export async function main(argv, io = {}) {
  const stderr = io.stderr ?? process.stderr;
  const debug = argv.includes('--debug');
  const { program, exitCode } = buildProgram({ ...io, argv });
  try {
    await program.parseAsync(argv[0] === 'run' ? argv.slice(1) : argv, { from: 'user' });
    return exitCode();
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help' || err.code === 'commander.version') return EXIT.OK;
      // commander already printed its one-line message
      return EXIT.USAGE;
    }
    return sayError(err, { stderr, debug });
  }
}
