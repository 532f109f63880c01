// The reviewer's artifact (ci-driver --artifact): what reading a count run again needs, copied out of its
// --out into one directory: the results file, its rows' kept profiles and its replay sets, at the paths
// `profile` and `--replay --out <artifact>` look them up.
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { usageError } from '../common/errors.js';

/** Refused before a run: the copy would be copied into itself. */
export function checkArtifactDir(dir, out) {
  const rel = relative(resolve(out), resolve(dir));
  if (rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep))) {
    throw usageError(`--artifact ${dir} is --out's directory or inside it`, 'give a directory outside --out (e.g. in $RUNNER_TEMP)');
  }
}

/**
 * `also`: more files to copy (a companion run's results). A pruned profile is left out (`profile` says
 * so of its row). Returns { dir, results (the copy), profiles (how many), replay (were the sets there) }.
 */
export function copyArtifact({ out, json, results, dir, also = [] }) {
  mkdirSync(dir, { recursive: true });
  const copied = join(dir, basename(json));
  cpSync(json, copied);
  for (const file of also) cpSync(file, join(dir, basename(file)));
  let profiles = 0;
  for (const bench of results.benches ?? []) {
    for (const row of bench.results ?? []) {
      const kept = row.count?.profile;
      if (!kept || !existsSync(join(out, kept))) continue;
      cpSync(join(out, kept), join(dir, kept), { recursive: true });
      profiles++;
    }
  }
  // In the action --out is the job's own (under $RUNNER_TEMP): its replay/ holds this run's sets only.
  const replay = join(out, 'replay');
  if (existsSync(replay)) cpSync(replay, join(dir, 'replay'), { recursive: true });
  return { dir, results: copied, profiles, replay: existsSync(replay) };
}
