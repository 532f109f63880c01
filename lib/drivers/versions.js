// Other releases of the built-in drivers (`--drivers mysql2@3.9.0,mysql2@latest`), installed from the
// npm registry with npm into a cache outside the project tree (defaultCacheDir), reused on later runs.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { installError, usageError } from '../common/errors.js';
import { installedVersion } from './common.js';
import { fillIntoPlace } from './cache-entry.js';

export const VERSIONED_PACKAGES = {
  mysql: { entry: 'promise-mysql', companion: 'promise-mysql' },
  mysql2: { entry: 'mysql2/promise' },
  mariadb: { entry: 'mariadb' },
};

// A registry version, range or dist-tag; nothing that npm would read as a path, URL or git spec.
const VERSION_SPEC = /^[0-9A-Za-z^~<>=][0-9A-Za-z.+\-^~<>=*]{0,63}$/;
const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** 'mysql2@3.9.0' -> { package: 'mysql2', version: '3.9.0' }; null when `spec` has no '@version'. */
export function parseVersionedSpec(spec) {
  const m = /^(mysql|mysql2|mariadb)@(.*)$/.exec(spec);
  if (!m) return null;
  return { package: m[1], version: m[2] };
}

export function isVersionedSpec(spec) {
  return parseVersionedSpec(spec) !== null;
}

/** Syntax only (no network): throws a usage error for `mysql2@` or `mysql2@file:../x`. */
export function assertVersionedSpec(spec) {
  const parsed = parseVersionedSpec(spec);
  if (!parsed) throw usageError(`'${spec}' is not a driver release`, 'write <driver>@<version>, e.g. mysql2@3.9.0 or mariadb@latest');
  if (!VERSION_SPEC.test(parsed.version)) {
    throw usageError(`'${spec}': '${parsed.version}' is not a version, range or tag of the npm registry`,
      `write e.g. ${parsed.package}@3.9.0, ${parsed.package}@^3 or ${parsed.package}@latest`);
  }
  return parsed;
}

/** Where installed releases are kept: $MYSQL_DRIVER_BENCH_CACHE, else $XDG_CACHE_HOME or ~/.cache. */
export function defaultCacheDir(env = process.env) {
  if (env.MYSQL_DRIVER_BENCH_CACHE) return resolve(env.MYSQL_DRIVER_BENCH_CACHE);
  return join(env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(homedir(), '.cache'), 'mysql-driver-bench');
}

/** Run npm; resolves to { code, stdout, stderr }, never rejects. */
export function runNpm(args, { cwd } = {}) {
  return new Promise((resolvePromise) => {
    let stdout = '';
    let stderr = '';
    let child;
    try {
      child = spawn('npm', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });
    } catch (err) {
      resolvePromise({ code: -1, stdout, stderr: err.message });
      return;
    }
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', (err) => resolvePromise({ code: -1, stdout, stderr: `${stderr}${err.code === 'ENOENT' ? 'npm not found on PATH' : err.message}` }));
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

export function npmReason(r) {
  const lines = `${r.stderr}`.split('\n').map((l) => l.replace(/^npm (error|ERR!)\s*/, '').trim())
    .filter((l) => l && !/^npm warn/i.test(l) && !/complete log of this run/i.test(l) && !/^(code|syscall|path|errno) /.test(l));
  return lines[0] || `npm exited with code ${r.code}`;
}

/** The exact version a spec names: one already cached as it is (no network), anything else from `npm view`. */
export async function resolveVersion(pkg, version, { npm = runNpm, cacheDir = defaultCacheDir() } = {}) {
  if (EXACT_VERSION.test(version) && isInstalled(cacheDir, pkg, version)) return version;
  const r = await npm(['view', `${pkg}@${version}`, 'version', '--json']);
  const spec = `${pkg}@${version}`;
  if (r.code !== 0) {
    let code = null;
    try { code = JSON.parse(r.stdout)?.error?.code ?? null; } catch { /* not JSON */ }
    if (code === 'E404' || /\bE404\b|No match found/.test(r.stderr)) {
      throw usageError(`driver release ${spec} does not exist on the npm registry`,
        `see the published versions with \`npm view ${pkg} versions\`, or use ${pkg}@latest`);
    }
    throw installError(`cannot look up ${spec} on the npm registry: ${npmReason(r)}`,
      'check the network access to the registry (npm config get registry), or name a version already installed in the cache');
  }
  let found;
  try { found = JSON.parse(r.stdout || 'null'); } catch { found = null; }
  if (Array.isArray(found)) found = found[found.length - 1]; // a range: npm lists the matches in ascending order
  if (typeof found !== 'string' || !EXACT_VERSION.test(found)) {
    throw usageError(`driver release ${spec} does not exist on the npm registry`,
      `see the published versions with \`npm view ${pkg} versions\`, or use ${pkg}@latest`);
  }
  return found;
}

export function releaseDir(cacheDir, pkg, version) {
  return join(cacheDir, `${pkg}@${version}`);
}

/** The version of `name` as Node would resolve it from `fromFile` (a file path). */
function resolvedVersion(name, fromFile) {
  try {
    return installedVersion(name, pathToFileURL(fromFile).href);
  } catch {
    return null;
  }
}

/** For `mysql`, the `mysql` that `promise-mysql` loads must be that version too (not one npm nested under it). */
export function isInstalled(cacheDir, pkg, version) {
  const dir = releaseDir(cacheDir, pkg, version);
  if (!existsSync(join(dir, '.installed.json'))) return false;
  return installedCheck(dir, pkg, version) === null;
}

function installedCheck(dir, pkg, version) {
  const anchor = join(dir, 'package.json');
  const got = resolvedVersion(pkg, anchor);
  if (got !== version) return `${pkg} resolves to ${got ?? 'nothing'}`;
  const { companion } = VERSIONED_PACKAGES[pkg];
  if (companion) {
    let companionFile;
    try {
      companionFile = createRequire(anchor).resolve(companion);
    } catch {
      return `${companion} is not installed`;
    }
    const inner = resolvedVersion(pkg, companionFile);
    if (inner !== version) return `${companion} loads ${pkg} ${inner ?? '(none)'}`;
  }
  return null;
}

/** The promise-mysql release installed next to an older `mysql`: the project's own. */
function companionVersion(pkg) {
  const { companion } = VERSIONED_PACKAGES[pkg];
  if (!companion) return null;
  const v = installedVersion(companion);
  return v && v !== 'unknown' ? v : 'latest';
}

/** Install `pkg@version` (exact) into its cache directory unless it is there already. */
export async function ensureInstalled(pkg, version, { npm = runNpm, cacheDir = defaultCacheDir(), log = () => {}, reinstall = false } = {}) {
  const dir = releaseDir(cacheDir, pkg, version);
  if (reinstall) rmSync(dir, { recursive: true, force: true });
  if (isInstalled(cacheDir, pkg, version)) return { dir, installed: false, ms: 0 };
  const started = Date.now();
  mkdirSync(cacheDir, { recursive: true });
  const companion = VERSIONED_PACKAGES[pkg].companion;
  const dependencies = { [pkg]: version };
  if (companion) dependencies[companion] = companionVersion(pkg);
  // The override makes npm use this release of `mysql` for promise-mysql too, instead of nesting
  // the release promise-mysql asks for (^2.18.1) under it.
  const manifest = { name: 'mysql-driver-bench-release-cache', private: true, description: `${pkg}@${version} for mysql-driver-bench`, dependencies };
  if (companion) manifest.overrides = { [pkg]: `$${pkg}` };
  log(`installing ${pkg}@${version}${companion ? ` with ${companion}@${dependencies[companion]}` : ''} into ${dir} (first use)`);
  await fillIntoPlace(dir, async (tmp) => {
    writeFileSync(join(tmp, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
    const r = await npm(['install', '--prefix', tmp, '--no-save', '--no-audit', '--no-fund', '--omit=dev', '--ignore-scripts', '--loglevel=error'], { cwd: tmp });
    if (r.code !== 0) {
      throw installError(`cannot install ${pkg}@${version} from the npm registry: ${npmReason(r)}`,
        'check the network access to the registry (npm config get registry)');
    }
    const problem = installedCheck(tmp, pkg, version);
    if (problem) throw installError(`installing ${pkg}@${version} went wrong: ${problem}`, `remove ${dir} and try again`);
    writeFileSync(join(tmp, '.installed.json'), JSON.stringify({ package: pkg, version, dependencies, installedAt: new Date().toISOString() }, null, 2) + '\n');
  }, { finished: () => isInstalled(cacheDir, pkg, version) }); // another run installed it meanwhile: use theirs
  const ms = Date.now() - started;
  log(`installed ${pkg}@${version} in ${(ms / 1000).toFixed(1)} s`);
  return { dir, installed: true, ms };
}

export function releaseModule(dir, pkg) {
  const anchor = join(dir, 'package.json');
  const require = createRequire(anchor);
  const { entry, companion } = VERSIONED_PACKAGES[pkg];
  const file = require.resolve(entry);
  const via = companion ? `${companion}@${resolvedVersion(companion, anchor)}` : undefined;
  return { load: () => import(pathToFileURL(file).href), via, file };
}

/** An adapter over the cached release, labelled with the exact version (`latest` and ranges resolved first). */
export async function loadVersionedDriver(spec, { npm = runNpm, cacheDir = defaultCacheDir(), log = defaultLog, factories, reinstall = false } = {}) {
  const { package: pkg, version: wanted } = assertVersionedSpec(spec);
  const version = await resolveVersion(pkg, wanted, { npm, cacheDir });
  const { dir } = await ensureInstalled(pkg, version, { npm, cacheDir, log, reinstall });
  const { load, via } = releaseModule(dir, pkg);
  const createAdapter = factories?.[pkg] ?? (await import(`./${pkg}.js`)).createAdapter;
  const pkgDir = join(dir, 'node_modules', pkg);
  const adapter = createAdapter({ load, version, name: `${pkg}@${version}`, dir: pkgDir, ...(via ? { via } : {}) });
  return { ...adapter, source: `${pkg}@${wanted}` };
}

function defaultLog(line) {
  process.stderr.write(`${line}\n`);
}
