// A local checkout of a built-in driver as a row of its own (`--drivers mysql2@file:../node-mysql2`,
// or a path to a directory whose package.json names one of them): a driver author's working copy,
// measured with that driver's adapter, its dependencies taken from the checkout's own node_modules.
// Nothing is ever installed into the checkout or into this project.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { usageError } from '../cli/errors.js';
import { installedVersion } from './common.js';

// What the adapter loads from a checkout of each driver (relative to its root).
const ENTRIES = { mysql: '.', mysql2: './promise.js', mariadb: './promise.js' };
export const LOCAL_PACKAGES = Object.keys(ENTRIES);

/** `mysql2@file:../x` -> { package: 'mysql2', dir: '../x' }; null for anything else. */
export function parseFileSpec(spec) {
  const m = /^(mysql|mysql2|mariadb)@file:(.+)$/.exec(spec);
  return m ? { package: m[1], dir: m[2] } : null;
}

const isDirectory = (path) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

function readManifest(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    return null;
  }
}

/** Is `spec` a local checkout (a file: spec, or a directory holding a built-in driver's package.json)? */
export function isLocalSpec(spec) {
  if (parseFileSpec(spec)) return true;
  if (!/^(\.{1,2}\/|\/)/.test(spec) || !isDirectory(resolve(spec))) return false;
  return LOCAL_PACKAGES.includes(readManifest(resolve(spec))?.name);
}

/**
 * Check a checkout before anything starts. Returns { package, dir (absolute), version, manifest };
 * throws a usage error saying what is wrong and what to do.
 */
export function inspectCheckout(spec) {
  const fileSpec = parseFileSpec(spec);
  const dir = resolve(fileSpec ? fileSpec.dir : spec);
  if (!isDirectory(dir)) throw usageError(`local driver ${spec}: ${dir} is not a directory`, 'point file: at a checkout of the driver');
  const manifest = readManifest(dir);
  if (!manifest) throw usageError(`local driver ${spec}: no readable package.json in ${dir}`, 'point it at the root of a checkout of the driver');
  const pkg = fileSpec?.package ?? manifest.name;
  if (manifest.name !== pkg) {
    throw usageError(`local driver ${spec}: ${dir} holds '${manifest.name}', not ${pkg}`, `name the driver the checkout holds, e.g. ${manifest.name}@file:${fileSpec?.dir ?? spec}`);
  }
  const missing = missingDependencies(dir, manifest);
  if (missing.length) {
    throw usageError(`local driver ${spec}: its dependencies are not installed (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''})`,
      `install them in the checkout: cd ${dir} && npm install --omit=dev`);
  }
  return { package: pkg, dir, version: manifest.version ?? 'unknown', manifest };
}

/** The runtime dependencies of the checkout that Node cannot find from it. */
function missingDependencies(dir, manifest) {
  const require = createRequire(join(dir, 'package.json'));
  return Object.keys(manifest.dependencies ?? {}).filter((dep) => {
    for (const request of [`${dep}/package.json`, dep]) {
      try {
        require.resolve(request);
        return false;
      } catch { /* try the next form */ }
    }
    return !existsSync(join(dir, 'node_modules', dep));
  });
}

/** The label of a checkout's row: its version and where it comes from. */
export const localLabel = (pkg, version) => `${pkg}@${version}+local`;

/**
 * Load a checkout as an adapter, built by the driver's own adapter factory. `loadSpec` is what a
 * driver process loads to get the same adapter (the file: form with an absolute path).
 */
export async function loadLocalDriver(spec) {
  const { package: pkg, dir, version } = inspectCheckout(spec);
  const require = createRequire(join(dir, 'package.json'));
  const entry = require.resolve(join(dir, ENTRIES[pkg]));
  const { createAdapter } = await import(`./${pkg}.js`);
  const name = localLabel(pkg, version);
  const common = { version, name, dir };
  const adapter = pkg === 'mysql'
    // promise-mysql (the project's) wraps the checkout's mysql instead of its own.
    ? createAdapter({ ...common, load: () => import('promise-mysql'), mysqlModule: () => require(entry), via: `promise-mysql@${installedVersion('promise-mysql')}` })
    : createAdapter({ ...common, load: () => import(pathToFileURL(entry).href) });
  return { ...adapter, source: `${pkg}@file:${dir}`, local: true, loadSpec: `${pkg}@file:${dir}` };
}
