// `merge <shard.json...>`: a run's shards joined into one results file, each cell from the shard that
// measured it. Written whole or not at all: to a temporary file, renamed into place.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { EXIT, usageError } from '../../common/errors.js';
import { assertWritableDir, readResults, resultsFileName, serialize } from '../../results/file.js';
import { describeShards, mergeShards } from '../../results/merge.js';
import { renderRun } from '../../reporting/sections.js';
import { exitCodesHelp } from '../exit-codes.js';

function writeWhole(file, text) {
  const tmp = join(dirname(file), `.${resultsFileName({ startedAt: new Date().toISOString() })}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw usageError(`cannot write the merged results to '${file}': ${err.code || err.message}`, 'choose a writable path');
  }
  return resolve(file);
}

export function registerMerge(program, { stdout, stderr, setExitCode = () => {} }) {
  program.command('merge')
    .description("join the results files of a run's shards (--shard i/n, e.g. the pods of a Kubernetes Indexed Job) into one results file")
    .argument('<shards...>', 'the results JSON each shard wrote, one per shard')
    .option('--json <file>', 'where to write the merged results (default: a new file in --out)')
    .option('-o, --out <dir>', 'where the merged results are saved without --json', 'results')
    .option('-q, --quiet', 'no table on stdout')
    .option('--debug', 'print stack traces on errors')
    .addHelpText('after', `
Each cell (bench × driver) comes from the shard that measured it, with its Δ as that shard paired it
against its own reference row; reference rows, probes and health come from shard 1; the run's
resolution is the coarsest shard's. Shards of different code, drivers, settings or server, a
missing shard, or one given twice are refused in one line (exit 2), and nothing is written.
${exitCodesHelp('merge')}`)
    .action((files, opts) => {
      const merged = mergeShards(files.map((file) => ({ file, results: readResults(file) })));
      let file;
      if (opts.json) file = writeWhole(opts.json, serialize(merged));
      else {
        assertWritableDir(opts.out);
        file = writeWhole(join(opts.out, resultsFileName(merged)), serialize(merged));
      }
      if (!opts.quiet) stdout.write(renderRun(merged));
      for (const line of describeShards(merged)) stderr.write(`${line}\n`);
      stderr.write(`merged results saved to ${file}\n`);
      setExitCode(merged.complete ? EXIT.OK : EXIT.ABORTED);
    });
}
