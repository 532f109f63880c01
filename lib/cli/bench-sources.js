// The run's benches from outside benchs/: --bench-file (a module keeping the bench contract) and --sql
// (a file of statements, with --setup, --prepared, --allow-writes). Each is checked here, before any
// server is started: what is wrong is one line, exit 2.
import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { usageError } from '../common/errors.js';
import { benchContractProblems } from '../measuring/bench/bench-contract.js';
import { loadBenchSources, parseSetupFile, parseSqlFile, sqlBenchName } from '../../benchs/index.js';

/** commander's collector for a repeatable flag. */
export const collect = (value, previous) => [...(previous ?? []), value];

function readInput(file, flag) {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw usageError(`${flag} ${file}: cannot read it (${err.code ?? err.message})`);
  }
}

async function checkBenchFile(given) {
  const file = resolve(given);
  if (!existsSync(file)) throw usageError(`--bench-file ${given}: no such file`);
  let mod;
  try {
    mod = await import(pathToFileURL(file).href);
  } catch (err) {
    throw usageError(`--bench-file ${given}: cannot load it: ${String(err?.message ?? err).split('\n')[0]}`);
  }
  const problems = benchContractProblems(mod.default);
  if (problems.length) throw usageError(`--bench-file ${given}: its default export is not a bench: ${problems.join('; ')}`, 'see the bench contract in docs/benches.md');
  if (mod.default.options || mod.default.probe) throw usageError(`--bench-file ${given}: a bench from a file cannot bring options or a probe`, 'put it in benchs/ and benchs/index.js');
  return { file };
}

/** The benches of --bench-file and --sql, loaded and registered (benchs/index.js); [] when none are given. */
export async function addedBenches(opts) {
  const files = opts.benchFile ?? [];
  const sqls = opts.sql ?? [];
  if (!sqls.length) {
    for (const flag of ['setup', 'prepared', 'allowWrites']) {
      if (opts[flag]) throw usageError(`--${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} applies to --sql benches, and none is given`);
    }
  }
  const sources = [];
  for (const f of files) sources.push(await checkBenchFile(f));
  let setup = null;
  if (opts.setup) setup = { file: opts.setup, statements: parseSetupFile(readInput(opts.setup, '--setup'), opts.setup) };
  for (const f of sqls) {
    const parsed = parseSqlFile(readInput(f, '--sql'), f);
    const name = sqlBenchName(f);
    if (!/^[a-z0-9_]+$/.test(name)) throw usageError(`--sql ${f}: a bench is named after its file, and this one gives no name`);
    sources.push({ sql: { name, file: f, ...parsed, prepared: Boolean(opts.prepared), allowWrites: Boolean(opts.allowWrites), setup } });
  }
  return loadBenchSources(sources);
}
