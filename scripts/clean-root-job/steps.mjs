// The run: scripts of action.yml's steps that a job runs, by step name, into files (as the tests' stepScript reads them).
import { readFileSync, writeFileSync } from 'node:fs';
const [action, outDir] = process.argv.slice(2);
const text = readFileSync(action, 'utf8');
const steps = { prepare: 'Fetch the base and the head, and name the caches', install: 'Install the harness, mariadb-server and valgrind', count: 'Count the head against the base', prune: 'Keep only the dependency trees this run used' };
for (const [file, name] of Object.entries(steps)) {
  const start = text.indexOf(`    - name: ${name}\n`);
  if (start < 0) throw new Error(name);
  const next = text.indexOf('\n    - ', start + 1);
  const step = text.slice(start, next < 0 ? undefined : next + 1);
  const script = step.slice(step.indexOf('run: |\n') + 7).split('\n').map((l) => l.replace(/^ {8}/, '')).join('\n');
  writeFileSync(`${outDir}/${file}.sh`, script);
}
