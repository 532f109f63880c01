// The harness's own version and git commit, recorded in every run's env and a count run's platform:
// a change to the harness alone has moved a count (docs/history/2026-11-27-bisect.md#a-harness-change-moved-one-row).
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** { version, commit }: commit is null outside a git checkout (an npm install). */
export function harnessCode() {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  const git = existsSync(join(root, '.git')) ? spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }) : null;
  return { version, commit: git?.status === 0 ? git.stdout.trim() : null };
}
