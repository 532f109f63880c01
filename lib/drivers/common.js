import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The same options for every driver: the fairness rules (docs/comparing.md).
export const COMMON_OPTIONS = Object.freeze({
  collation: 'UTF8MB4_UNICODE_CI',
  connectTimeout: 10000,
  trace: false, // per-query stack-trace capture: mysql and mysql2 default to on, mariadb to off
  compress: false,
});

/** Connection target -> the option names the mysql-family drivers share. */
export function baseOptions(target) {
  const o = {
    user: target.user,
    password: target.password,
    database: target.database,
    connectTimeout: COMMON_OPTIONS.connectTimeout,
    trace: COMMON_OPTIONS.trace,
  };
  if (target.socket) o.socketPath = target.socket;
  else { o.host = target.host; o.port = target.port; }
  // A bench's own driver options (e.g. `ssl`, `timezone`): the adapter's fixed options still win.
  if (target.driverOptions) Object.assign(o, target.driverOptions);
  return o;
}

export const isDirectory = (path) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** A directory's package.json, parsed (null when it has none, or not a readable one). */
export function readManifest(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    return null;
  }
}

/** The root directory of an installed package as Node resolves it from `fromUrl` (null when absent). */
export function packageDir(packageName, fromUrl = import.meta.url) {
  let dir;
  try {
    dir = dirname(createRequire(fromUrl).resolve(packageName));
  } catch {
    return null;
  }
  for (;;) {
    if (readManifest(dir)?.name === packageName) return dir;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

export function installedVersion(packageName, fromUrl = import.meta.url) {
  const dir = packageDir(packageName, fromUrl);
  if (!dir) throw new Error(`Cannot find package '${packageName}'`);
  return readManifest(dir)?.version ?? 'unknown';
}

/**
 * The fields every built-in adapter has: its label, package, release, directory, a variant row's
 * options, and `withOptions` (the same adapter as a variant row, made again by `create`).
 */
export function adapterFields(create, args, packageName) {
  const { name = packageName, version, dir = null, extraOptions = {} } = args;
  return {
    name,
    packageName,
    version,
    dir,
    extraOptions,
    withOptions: (options, label) => create({ ...args, name: label, extraOptions: { ...extraOptions, ...options } }),
  };
}

/** Swallow 'error' events so a dropped connection fails the pending call instead of crashing the process. */
export function ignoreErrorEvents(emitter) {
  if (emitter && typeof emitter.on === 'function') emitter.on('error', () => {});
}

/** Load a driver module lazily, once; returns its default export when it has one. */
export function loadOnce(load) {
  let p;
  return async () => {
    const mod = await (p ??= load());
    return mod.default ?? mod;
  };
}
