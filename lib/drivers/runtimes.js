// A row's runtime: `mysql2~node@24` runs its driver processes on Node 24, `mysql2~bun` on Bun, fetched
// once from the npm registry into <cache>/runtimes/, checked (SHA-256, `--version`) on every use and
// fetched again when the check fails. The coordinator always stays on the harness's Node.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installError, usageError } from '../common/errors.js';
import { defaultCacheDir, npmReason, runNpm } from './versions.js';
import { splitRepeat } from './spec.js';

export const RUNTIME_KINDS = ['node', 'bun'];
const RUNTIME_SPEC = /^(node|bun)(?:@([\w.^~<>=*-]+))?$/;
const EXACT = /^\d+\.\d+\.\d+$/;
const PREFIX = /^\d+(?:\.\d+)?$/;

/** `node@24` → { kind: 'node', range: '24' }; `bun` → { kind: 'bun', range: null }. */
export function parseRuntime(text) {
  const m = RUNTIME_SPEC.exec(String(text).trim());
  if (!m) {
    throw usageError(`unknown runtime '${text}'`, `a runtime is ${RUNTIME_KINDS.join(' or ')}, with an optional version or range from the npm registry: node@24, node@22.23.3, bun, bun@1.4`);
  }
  return { kind: m[1], range: m[2] === 'latest' ? null : m[2] ?? null };
}

/** `mysql2:opt=v~node@24` → { base: 'mysql2:opt=v', runtime: 'node@24' } (runtime null without a suffix). */
export function splitRuntime(spec) {
  const m = /^(.+)~((?:node|bun)(?:@[^~#]+)?)$/.exec(spec);
  return m ? { base: m[1], runtime: m[2] } : { base: spec, runtime: null };
}

export const harnessRuntime = () => ({ kind: 'node', version: process.versions.node, exec: process.execPath, harness: true });

/** What a row's label and the results say of its runtime: `node 24.21.0`, `bun 1.4.5`. */
export const runtimeText = (runtime) => `${runtime.kind} ${runtime.version}`;

// What a driver process on Bun does not have, said on its row rather than dropped: Bun runs
// JavaScriptCore, not V8, and its perf_hooks reports no GC.
const BUN_LACKS = Object.freeze([
  'V8 flags (the fixed young generation every Node driver process has; --jit wait)',
  'GC pauses (Bun reports no GC to perf_hooks)',
]);

export const describeRuntime = (runtime) => ({
  kind: runtime.kind, version: runtime.version, harness: Boolean(runtime.harness), lacks: runtime.kind === 'bun' ? [...BUN_LACKS] : [],
});

const packageOf = (kind) => (kind === 'node' ? `node-${process.platform}-${process.arch}` : `@oven/bun-${process.platform}-${process.arch}`);
const runtimeDir = (cacheDir, kind, version) => join(cacheDir, 'runtimes', `${kind}-${version}`);
const binaryOf = (dir, kind) => join(dir, 'package', 'bin', kind);
const compareVersions = (a, b) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
};
const matches = (version, range) => range === null || version === range || (PREFIX.test(range) && version.startsWith(`${range}.`));

function sha256(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** What `<binary> --version` prints, without node's leading v; null when it does not run. */
function reportedVersion(exec) {
  const r = spawnSync(exec, ['--version'], { encoding: 'utf8', timeout: 20000 });
  return r.status === 0 ? r.stdout.trim().replace(/^v/, '') : null;
}

/** Why the cached runtime in `dir` cannot be used, or null when its binary is whole and runs. */
export function checkCached(dir, kind, version) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'runtime.json'), 'utf8'));
  } catch {
    return 'its runtime.json is missing or unreadable';
  }
  const exec = binaryOf(dir, kind);
  if (!existsSync(exec)) return `its binary ${exec} is missing`;
  if (sha256(exec) !== manifest.sha256) return 'its binary does not match the SHA-256 recorded when it was fetched';
  const said = reportedVersion(exec);
  if (said !== version) return `its binary ${said === null ? 'does not run' : `says ${said}`} (--version)`;
  return null;
}

function cachedVersions(cacheDir, kind, range) {
  let names = [];
  try { names = readdirSync(join(cacheDir, 'runtimes')); } catch { /* no cache yet */ }
  return names.map((n) => new RegExp(`^${kind}-(\\d+\\.\\d+\\.\\d+)$`).exec(n)?.[1]).filter((v) => v && matches(v, range)).sort(compareVersions).reverse();
}

async function registryVersion(kind, range, { npm, spec }) {
  const pkg = packageOf(kind);
  const r = await npm(['view', `${pkg}@${range ?? 'latest'}`, 'version', '--json']);
  if (r.code !== 0) {
    if (/\bE404\b|No match found/.test(`${r.stdout}${r.stderr}`)) {
      throw usageError(`runtime ${spec}: the npm registry has no ${pkg}@${range ?? 'latest'}`, `see the versions with \`npm view ${pkg} versions\``);
    }
    throw installError(`runtime ${spec} could not be fetched: the npm registry did not answer (${npmReason(r)})`,
      'run once with access to the registry (npm config get registry), or name a runtime already in the cache');
  }
  let found;
  try { found = JSON.parse(r.stdout || 'null'); } catch { found = null; }
  const versions = (Array.isArray(found) ? found : [found]).filter((v) => typeof v === 'string' && EXACT.test(v));
  if (!versions.length) throw usageError(`runtime ${spec}: the npm registry has no ${pkg}@${range ?? 'latest'}`, `see the versions with \`npm view ${pkg} versions\``);
  return versions.sort(compareVersions).at(-1);
}

/** Fetch `kind@version` into its cache directory: npm pack, unpack, check, then rename into place. */
async function fetchRuntime(kind, version, { cacheDir, npm, log }) {
  const pkg = packageOf(kind);
  const dir = runtimeDir(cacheDir, kind, version);
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const started = Date.now();
  log(`runtime: fetching ${kind} ${version} (${pkg}, about 50 MB) from the npm registry into ${dir}…`);
  const ticker = setInterval(() => log(`runtime: fetching ${kind} ${version}… ${Math.round((Date.now() - started) / 1000)} s`), 5000);
  try {
    const r = await npm(['pack', `${pkg}@${version}`, '--pack-destination', tmp, '--json']);
    if (r.code !== 0) throw installError(`runtime ${kind}@${version} could not be fetched: ${npmReason(r)}`, 'check the access to the npm registry (npm config get registry)');
    const tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    const untar = spawnSync('tar', ['-xzf', join(tmp, tarball), '-C', tmp], { encoding: 'utf8' });
    if (untar.status !== 0) throw installError(`runtime ${kind}@${version}: its package could not be unpacked (${untar.stderr.trim() || `tar exit ${untar.status}`})`, `remove ${tmp} and try again`);
    rmSync(join(tmp, tarball));
    const exec = binaryOf(tmp, kind);
    const said = existsSync(exec) ? reportedVersion(exec) : null;
    if (said !== version) throw installError(`runtime ${kind}@${version} from ${pkg} does not run here (--version: ${said ?? 'failed'})`, `the package is for ${process.platform}-${process.arch}; check it runs: ${exec} --version`);
    writeFileSync(join(tmp, 'runtime.json'), `${JSON.stringify({ kind, version, package: pkg, sha256: sha256(exec), fetchedAt: new Date().toISOString() }, null, 2)}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  } finally {
    clearInterval(ticker);
    rmSync(tmp, { recursive: true, force: true });
  }
  log(`runtime: ${kind} ${version} fetched in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const resolved = new Map();

/** Ready to run: { kind, version, exec, spec }. A cached runtime that fails its check is fetched again. */
export async function resolveRuntime(spec, { cacheDir = defaultCacheDir(), npm = runNpm, log = (l) => process.stderr.write(`${l}\n`) } = {}) {
  const { kind, range } = parseRuntime(spec);
  if (kind === 'node' && range === null && spec.trim() === 'node') return { ...harnessRuntime(), spec };
  const key = `${cacheDir}\u0000${spec}`;
  if (resolved.has(key)) return resolved.get(key);
  // A version or a major (node@24, bun@1.4) is taken from the cache when one matches; `latest` asks
  // the registry, and falls back to the newest cached one when it cannot be reached.
  const cached = range === null || EXACT.test(range) || PREFIX.test(range) ? cachedVersions(cacheDir, kind, range) : [];
  let version = range === null ? null : cached[0];
  if (!version) {
    try {
      version = await registryVersion(kind, range, { npm, spec });
    } catch (err) {
      if (!cached.length || /has no/.test(err.message)) throw err;
      version = cached[0];
      log(`runtime: ${err.message.replace(/^runtime \S+ /, '')}; using the cached ${kind} ${version}`);
    }
  }
  const dir = runtimeDir(cacheDir, kind, version);
  if (existsSync(dir)) {
    const problem = checkCached(dir, kind, version);
    if (problem) {
      log(`runtime: the cached ${kind} ${version} is damaged (${problem}); fetching it again`);
      await fetchRuntime(kind, version, { cacheDir, npm, log });
    }
  } else {
    await fetchRuntime(kind, version, { cacheDir, npm, log });
  }
  const runtime = { kind, version, exec: binaryOf(dir, kind), spec, harness: false };
  resolved.set(key, runtime);
  return runtime;
}

/**
 * `--runtimes node@20,bun`: one row per runtime for each spec without one of its own (`node` alone: the
 * spec as given); a driver that runs on one runtime only (bun-sql) is kept once.
 */
export function expandRuntimes(specs, runtimes, { only = () => false } = {}) {
  if (!runtimes?.length) return specs;
  runtimes.forEach(parseRuntime);
  return specs.flatMap((spec) => {
    const { base, tag: repeat } = splitRepeat(spec);
    const tag = repeat ? `#${repeat}` : '';
    if (splitRuntime(base).runtime || only(base)) return [spec];
    return runtimes.map((r) => (r.trim() === 'node' ? spec : `${base}~${r.trim()}${tag}`));
  });
}
