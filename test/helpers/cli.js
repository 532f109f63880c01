// Runs the CLI in a child process with its own TMPDIR, so a test can check nothing is left behind.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { resultsValidator } from '../../lib/results/file.js';

export const BIN = fileURLToPath(new URL('../../bin/mysql-driver-bench.js', import.meta.url));

const created = [];

/** A private TMPDIR and results dir for one CLI run; removed by removeIsolatedDirs(). */
export function isolatedDirs() {
  const base = mkdtempSync(join(tmpdir(), 'mdb-cli-test-'));
  created.push(base);
  return { base, tmp: join(base, 'tmp'), out: join(base, 'results') };
}

/**
 * Remove the dirs, after checking every results file the runs saved there against the published
 * schema (docs/results.schema.json): a results file a test produced that the schema refuses fails
 * the test file, naming the field.
 */
export function removeIsolatedDirs() {
  const refused = [];
  for (const dir of created.splice(0)) {
    const out = join(dir, 'results');
    const saved = existsSync(out) ? readdirSync(out).filter((f) => RESULTS_FILE.test(f)) : [];
    for (const f of saved) {
      const validate = resultsValidator();
      if (!validate(JSON.parse(readFileSync(join(out, f), 'utf8')))) refused.push(`${f}: ${validate.errors[0].instancePath} ${validate.errors[0].message}`);
    }
    rmSync(dir, { recursive: true, force: true });
  }
  if (refused.length) throw new Error(`results files refused by docs/results.schema.json: ${refused.join('; ')}`);
}

// The name saveResults gives a run's results file.
const RESULTS_FILE = /^\d{4}-\d\d-\d\dT[\d-]+Z\.json$/;

/**
 * Start the CLI. Returns { child, done } where done resolves to { code, signal, stdout, stderr }.
 * `onStderr(text, child)` sees stderr as it arrives (to send a signal half-way, say); `detached` gives
 * the run a process group of its own; `cwd` its working directory (where a config file is looked for).
 */
export function startCli(args, { env = {}, tmp, onStderr, timeoutMs = 120000, detached = false, cwd } = {}) {
  const childEnv = { ...process.env, ...env };
  for (const k of ['DB_HOST', 'DB_PORT', 'DB_USER', 'DB_PASSWORD', 'DB_DATABASE', 'DB_SOCKET', 'npm_lifecycle_event']) {
    if (!(k in env)) delete childEnv[k];
  }
  if (tmp) {
    childEnv.TMPDIR = tmp;
    mkdirSync(tmp, { recursive: true });
  }
  // detached: a process group of its own, so a test can signal it as a terminal does (kill(-pid)).
  const child = spawn(process.execPath, [BIN, ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached, cwd });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; onStderr?.(stderr, child); });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const done = new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, done };
}

export const runCli = (args, opts) => startCli(args, opts).done;

/** True when `text` holds no stack-trace line (what users see without --debug). */
export const noStackTrace = (text) => !/^\s+at .+:\d+:\d+\)?$/m.test(text);

/** Processes whose command line mentions `text` (e.g. a test's private TMPDIR). */
export function processesMentioning(text) {
  const found = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(text) && Number(pid) !== process.pid) found.push(`${pid}: ${cmd.trim()}`);
    } catch { /* gone */ }
  }
  return found;
}

/** What is left in a test's TMPDIR and process table after the CLI exited (should be nothing). */
export function leftovers(tmp) {
  let files = [];
  try { files = readdirSync(tmp); } catch { /* none */ }
  return { files, processes: processesMentioning(tmp) };
}
