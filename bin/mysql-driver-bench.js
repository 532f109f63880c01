#!/usr/bin/env node
// Entry point: checks that dependencies are installed, then hands over to lib/cli/index.js.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// Found as Node finds it: in a clone's node_modules, or hoisted into the project that installed this one.
const installed = (name) => { try { return Boolean(createRequire(import.meta.url).resolve(name)); } catch { return false; } };
if (!installed('commander')) {
  process.stderr.write(`mysql-driver-bench: error: dependencies are not installed — run \`npm ci\` in ${root} (or \`npm run benchmark\`, which does it)\n`);
  process.exit(5); // EXIT.INSTALL (lib/common/errors.js): something the run needs is not installed
}
// A reader that stops early (`mysql-driver-bench --help | head`) is not an error: drop the rest of
// the output; a run goes on to its clean-up and its results file.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
  });
}
const { main } = await import('../lib/cli/index.js');
process.exitCode = await main(process.argv.slice(2));
