// A local checkout of a built-in driver as a row (`mysql2@file:../node-mysql2`, or a directory holding
// one), measured with that driver's adapter and the checkout's own node_modules. Nothing is ever
// installed into the checkout or into this project.
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { usageError } from '../common/errors.js';
import { installedVersion, isDirectory, readManifest } from './common.js';
import { describeMissing, installCommand, missingModules } from './checkout-modules.js';
import { git } from './git.js';

// What the adapter loads from a checkout of each driver (relative to its root).
const ENTRIES = { mysql: '.', mysql2: './promise.js', mariadb: './promise.js' };
export const LOCAL_PACKAGES = Object.keys(ENTRIES);

/** `mysql2@file:../x` -> { package: 'mysql2', dir: '../x' }; null for anything else. */
export function parseFileSpec(spec) {
  const m = /^(mysql|mysql2|mariadb)@file:(.+)$/.exec(spec);
  return m ? { package: m[1], dir: m[2] } : null;
}

export function isLocalSpec(spec) {
  if (parseFileSpec(spec)) return true;
  if (!/^(\.{1,2}\/|\/)/.test(spec) || !isDirectory(resolve(spec))) return false;
  return LOCAL_PACKAGES.includes(readManifest(resolve(spec))?.name);
}

/** Checked before anything starts: { package, dir (absolute), version, manifest }, else a usage error. */
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
  // Walked before anything starts: a module missing deep in the tree would otherwise fail the row
  // only when the driver process loads the checkout.
  const missing = missingModules(dir).map(describeMissing);
  if (missing.length) {
    throw usageError(`local driver ${spec}: its dependencies are not installed: ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}`,
      `install them in the checkout: ${installCommand(dir)}`);
  }
  return { package: pkg, dir, version: manifest.version ?? 'unknown', manifest };
}

/**
 * When a CommonJS module inside an ES module graph throws, Node rejects the import and then reports the
 * error again as an unhandled rejection, which would end the process (nodejs/node#51603): that one is ignored.
 */
async function importCheckout(url) {
  let failure;
  const ignoreSecondReport = (reason) => {
    if (reason !== failure) throw reason; // anything else still ends the process, as by default
  };
  process.on('unhandledRejection', ignoreSecondReport);
  try {
    return await import(url);
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    // The second report comes once the current microtasks have run.
    await new Promise((resolve) => setImmediate(resolve));
    process.off('unhandledRejection', ignoreSecondReport);
  }
}

/** Read-only: { commit, dirty } of a work tree's root (dirty: changes, or untracked unignored files), else null. */
export function describeCheckout(dir) {
  try {
    const top = git(['-C', dir, 'rev-parse', '--show-toplevel']);
    if (top.code !== 0 || realpathSync(top.stdout.toString().trim()) !== realpathSync(dir)) return null;
    const head = git(['-C', dir, 'rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
    if (head.code !== 0) return null; // a repository with no commit yet
    const status = git(['-C', dir, 'status', '--porcelain']);
    return { commit: head.stdout.toString().trim(), dirty: status.code !== 0 || status.stdout.length > 0 };
  } catch {
    return null; // no git on this machine: the checkout is described as local
  }
}

/** The label of a checkout's row: its version and its commit (`+abc1234`, `+abc1234-dirty`), or `+local` outside git. */
export const localLabel = (pkg, version, described = null) => `${pkg}@${version}+${described ? `${described.commit.slice(0, 7)}${described.dirty ? '-dirty' : ''}` : 'local'}`;

/** `describe`: ask git for the commit the label names (a driver process, which its parent labels, does not). */
export async function loadLocalDriver(spec, { describe = true } = {}) {
  const { package: pkg, dir, version } = inspectCheckout(spec);
  const require = createRequire(join(dir, 'package.json'));
  const entry = require.resolve(join(dir, ENTRIES[pkg]));
  const { createAdapter } = await import(`./${pkg}.js`);
  const described = describe ? describeCheckout(dir) : null;
  const name = localLabel(pkg, version, described);
  const common = { version, name, dir };
  const adapter = pkg === 'mysql'
    // promise-mysql (the project's) wraps the checkout's mysql instead of its own.
    ? createAdapter({ ...common, load: () => import('promise-mysql'), mysqlModule: () => require(entry), via: `promise-mysql@${installedVersion('promise-mysql')}` })
    : createAdapter({ ...common, load: () => importCheckout(pathToFileURL(entry).href) });
  const commit = described ? { git: { repository: dir, commit: described.commit, dirty: described.dirty } } : {};
  return { ...adapter, source: `${pkg}@file:${dir}`, local: true, loadSpec: `${pkg}@file:${dir}`, ...commit };
}
