#!/usr/bin/env node
// A count command's exit code in the terms `git bisect run` reads: 0 good, 1 bad, 125 skip (this
// commit cannot be tested), 128 stop the bisection. Without it git would call a commit whose
// dependencies do not install (exit 5) or a misspelled flag (exit 2) bad.
// Usage: git bisect run node <harness>/scripts/bisect-run.js mysql-driver-bench do --replay --count instructions \
//          --drivers mysql2@git:.#<good>,mysql2@git:.#HEAD --baseline mysql2@git:.#<good> --threshold <pct>
// The command gets `--json <file>` added, so that a row that failed its check (exit 1 too) is told
// apart from a regression.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const GOOD = 0;
export const BAD = 1;
export const SKIP = 125;
export const STOP = 128;

// Exit 5 for the commit itself (its files or dependencies), not for the host (Valgrind, mariadbd).
const COMMIT_UNINSTALLABLE = /cannot install the dependencies of|cannot extract commit|its dependencies installed without|has no package\.json at its root/;

/** Pure: what git bisect run is told for the command's exit code, its stderr and its results (or null). */
export function bisectCode(code, stderr, results) {
  if (code === 0) return GOOD;
  if (code === 1) {
    // A regression is bad; a row that failed its check or was not counted says nothing of the count.
    const rows = results?.benches?.flatMap((b) => b.results ?? []) ?? [];
    return rows.length && rows.every((r) => r.status !== 'failed' && r.count?.perOp > 0) ? BAD : SKIP;
  }
  if (code === 5 && COMMIT_UNINSTALLABLE.test(stderr)) return SKIP;
  return STOP;
}

// `mysql-driver-bench` as the command is this harness's own CLI: from a clone it is on no PATH.
const OWN_CLI = fileURLToPath(new URL('../bin/mysql-driver-bench.js', import.meta.url));

/** Pure: the program and arguments to start for `argv` (`mysql-driver-bench …`: this harness's CLI, on this Node). */
export const commandOf = (argv) => (argv[0] === 'mysql-driver-bench' ? [process.execPath, [OWN_CLI, ...argv.slice(1)]] : [argv[0], argv.slice(1)]);

/** Run the command and wait for it; a SIGINT or SIGTERM meanwhile is passed on to it (its results then say stop). */
function runCommand(argv, json) {
  return new Promise((resolve) => {
    const [program, args] = commandOf(argv);
    const child = spawn(program, [...args, '--json', json], { stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward).on('SIGTERM', forward);
    const done = (r) => {
      process.off('SIGINT', forward).off('SIGTERM', forward);
      resolve({ ...r, stderr });
    };
    child.on('error', (error) => done({ error }));
    child.on('close', (status, signal) => done({ status, signal }));
  });
}

async function main(argv) {
  if (!argv.length) {
    process.stderr.write('usage: bisect-run.js <count command...> (it gets --json <file> added)\n');
    return STOP;
  }
  // Removed however the command ends, a signal included (it is passed on, and waited for).
  const dir = mkdtempSync(join(tmpdir(), 'mdb-bisect-run-'));
  try {
    const json = join(dir, 'results.json');
    const r = await runCommand(argv, json);
    if (r.error) {
      process.stderr.write(`bisect-run.js: cannot run ${argv[0]}: ${r.error.message}\n`);
      return STOP;
    }
    process.stderr.write(r.stderr);
    let results = null;
    try { results = JSON.parse(readFileSync(json, 'utf8')); } catch { /* none written */ }
    const code = bisectCode(r.status, r.stderr, results);
    process.stderr.write(`bisect-run.js: exit ${r.status ?? r.signal} -> ${{ [GOOD]: 'good (0)', [BAD]: 'bad (1)', [SKIP]: 'skip (125)', [STOP]: 'stop (128)' }[code]}\n`);
    return code;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main(process.argv.slice(2));
