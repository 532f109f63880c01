// The modules a local checkout needs at run time: found before anything starts by walking its
// dependency tree as Node resolves it, and, for whatever still goes missing when the checkout loads
// (a module used but not declared), the loader's error turned into one line saying what to install.
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { readManifest } from './common.js';

export const installCommand = (dir) => `cd ${dir} && npm install --omit=dev`;

// Optional dependencies may be absent by design, and type packages are never loaded.
function runtimeDependencies(manifest) {
  const optional = manifest?.optionalDependencies ?? {};
  return Object.keys(manifest?.dependencies ?? {}).filter((dep) => !(dep in optional) && !dep.startsWith('@types/'));
}

/** Where Node finds package `name` from a package in `fromDir` (its real path), or null. */
function findPackage(name, fromDir) {
  const require = createRequire(join(fromDir, 'package.json'));
  // A trailing slash keeps a name that is also a core module's (string_decoder) a package request.
  for (const base of require.resolve.paths(`${name}/`) ?? []) {
    const candidate = join(base, name);
    if (existsSync(candidate)) return realpathSync(candidate);
  }
  return null;
}

/** The runtime dependencies, direct and transitive, Node cannot find from the package declaring them. */
export function missingModules(checkoutDir) {
  const root = realpathSync(checkoutDir);
  const seen = new Set([root]);
  const queue = [{ dir: root, name: null }];
  const missing = [];
  while (queue.length) {
    const { dir, name } = queue.shift();
    for (const dep of runtimeDependencies(readManifest(dir))) {
      const found = findPackage(dep, dir);
      if (!found) missing.push({ module: dep, neededBy: name });
      else if (!seen.has(found)) {
        seen.add(found);
        queue.push({ dir: found, name: dep });
      }
    }
  }
  return missing;
}

/** `safer-buffer (needed by iconv-lite)`, or just the name for one of the checkout's own. */
export const describeMissing = ({ module, neededBy }) => (neededBy ? `${module} (needed by ${neededBy})` : module);

/** `@scope/name/sub` -> `@scope/name`; `name/sub` -> `name`. */
const packageOf = (request) => request.split('/').slice(0, request.startsWith('@') ? 2 : 1).join('/');

function packageOwning(file) {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const name = readManifest(dir)?.name;
    if (name) return name;
    if (dirname(dir) === dir) return null;
  }
}

/** A module-not-found error as one line saying what to install (the require stack kept as the cause). */
export function describeLoadFailure(err, dir) {
  if (err?.code !== 'MODULE_NOT_FOUND' && err?.code !== 'ERR_MODULE_NOT_FOUND') return err;
  // require: "Cannot find module 'x'\nRequire stack:\n- <file>..."; import: "Cannot find package 'x' imported from <file>".
  const found = /^Cannot find (?:module|package) '([^']+)'(?: imported from (.+))?/.exec(err.message);
  if (!found) return err;
  const [, request, importedFrom] = found;
  const from = err.requireStack?.[0] ?? importedFrom?.trim();
  const neededBy = from ? packageOwning(from) : null;
  const by = neededBy ? ` (needed by ${neededBy})` : '';
  const isFile = /^(\.{0,2}\/|file:)/.test(request);
  const message = isFile
    ? `cannot load the checkout: file ${request}${by} is missing — is the checkout complete (built, if it needs building)?`
    : `cannot load the checkout: module '${packageOf(request)}'${by} is not installed — install it in the checkout: ${installCommand(dir)}`;
  return Object.assign(new Error(message, { cause: err }), { code: 'LOCAL_MODULE_MISSING' });
}
