// Which drivers a run compares: built-in adapters by name, or adapter modules by path.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { usageError } from '../common/errors.js';
import { assertVersionedSpec, defaultCacheDir, isVersionedSpec, loadVersionedDriver } from './versions.js';
import { inspectCheckout, isLocalSpec, loadLocalDriver } from './local.js';
import { assertGitSpec, prepareGitCheckout } from './git.js';
import { pruneGitCache } from './git-cache.js';
import { isGitSpec, programSpec, splitLabel, splitRepeat } from './spec.js';
import { expandReleaseRanges, isReleaseRange, parseReleaseRange } from './ranges.js';
import { assertAllowedOptions, fairnessOverrides, splitVariant, unknownOptions, variantLabel } from './variants.js';
import { harnessRuntime, parseRuntime, resolveRuntime, splitRuntime } from './runtimes.js';

// Loaded lazily so that `--help` and `list` do not pay for every driver's import.
const BUILTIN = {
  mysql: () => import('./mysql.js'),
  mysql2: () => import('./mysql2.js'),
  mariadb: () => import('./mariadb.js'),
  floor: () => import('./floor.js'), // the reference client, not one of the default drivers
  'bun-sql': () => import('./bun-sql.js'), // Bun's own client: its rows run on Bun
};

export const BUILTIN_DRIVERS = ['mysql', 'mysql2', 'mariadb'];

const isPath = (spec) => !isLocalSpec(spec) && !isGitSpec(spec) && /^(\.{1,2}\/|\/)|\.(m?js)$/.test(spec);
const isRelease = (spec) => !isPath(spec) && !isLocalSpec(spec) && !isGitSpec(spec) && !isReleaseRange(spec) && isVersionedSpec(spec);

export { programSpec, splitRepeat };

/** A spec's parts: { label, base (the driver itself), options, written, runtime, tag }. */
function splitSpec(spec) {
  const { label, spec: unlabelled } = splitLabel(spec);
  const { base: withRuntime, tag } = splitRepeat(unlabelled);
  const { base: withOptions, runtime } = splitRuntime(withRuntime);
  return { label, tag, runtime, withOptions, ...splitVariant(withOptions) };
}

/** Pure: the built-in adapter file a spec builds on (mysql2.js for any release, checkout or commit of mysql2), else null. */
export function builtinAdapterFile(spec) {
  const { base } = splitSpec(spec);
  const name = isPath(base) ? null : base.split('@')[0];
  return Object.hasOwn(BUILTIN, name ?? '') ? fileURLToPath(new URL(`./${name}.js`, import.meta.url)) : null;
}

/** Check the names before anything starts: built-in drivers, releases, checkouts, or adapter files that exist. */
export function assertDriverNames(specs, { overrideFairness = false } = {}) {
  if (specs.length === 0) throw usageError('no driver selected', `choose from: ${BUILTIN_DRIVERS.join(', ')}`);
  // A release range (mysql2@3.0.0..3.24.5:minor) is checked here and expanded into its releases by loadDrivers.
  specs.filter(isReleaseRange).forEach(parseReleaseRange);
  specs = specs.filter((s) => !isReleaseRange(s));
  const variants = specs.map((s) => {
    const v = splitSpec(s);
    if (v.runtime) parseRuntime(v.runtime);
    return { spec: s, ...v };
  });
  const bases = variants.map((v) => v.base);
  const unknown = bases.filter((s) => !BUILTIN[s] && !isPath(s) && !isRelease(s) && !isLocalSpec(s) && !isGitSpec(s));
  if (unknown.length) {
    throw usageError(`unknown driver${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`,
      `valid drivers: ${BUILTIN_DRIVERS.join(', ')}, floor (the reference client), bun-sql (Bun's client, on Bun), a release of one (mysql2@3.9.0, mariadb@latest), a range of releases (mysql2@3.0.0..3.24.5:minor), a local checkout (mysql2@file:../node-mysql2), a commit of a git repository (mysql2@git:../node-mysql2#v3.9.0), a path to an adapter module (./my-adapter.js); any of these with :option=value for a variant (mysql2:disableEval=true), ~runtime for its processes on another runtime (mysql2~node@24, mysql2~bun), or with #tag for a second process of it (mysql2#2); label=spec names a row (head=mysql2@git:.#HEAD)`);
  }
  const offRuntime = variants.find((v) => v.base === 'bun-sql' && v.runtime && parseRuntime(v.runtime).kind !== 'bun');
  if (offRuntime) throw usageError(`${offRuntime.spec}: bun-sql is Bun's own client and runs only on Bun`, 'write bun-sql (or bun-sql~bun@<version>)');
  for (const v of variants) if (v.written.length) assertAllowedOptions(v.spec, v.options, { overrideFairness });
  bases.filter(isRelease).forEach(assertVersionedSpec);
  bases.filter(isLocalSpec).forEach(inspectCheckout);
  bases.filter(isGitSpec).forEach(assertGitSpec);
  const missing = bases.filter((s) => isPath(s) && !existsSync(resolve(s)));
  if (missing.length) throw usageError(`adapter module not found: ${missing.join(', ')}`, 'check the path given to --drivers');
  const dup = specs.find((n, i) => specs.indexOf(n) !== i);
  if (dup) throw usageError(`driver '${dup}' is named twice`);
}

/** An adapter module's default export must look like the built-in ones. */
export function validateAdapter(adapter, from) {
  const problems = [];
  if (!adapter || typeof adapter !== 'object') problems.push('a default export object');
  else {
    if (typeof adapter.name !== 'string' || !/^[\w.@/-]{1,60}$/.test(adapter.name)) problems.push('a `name` string');
    if (typeof adapter.connect !== 'function') problems.push('a `connect(target)` function');
  }
  if (problems.length) {
    throw usageError(`adapter ${from} lacks ${problems.join(' and ')}`,
      'an adapter exports default { name, version, capabilities, connect(target) -> { query, close } } (see docs/comparing.md, "Custom adapters")');
  }
  return {
    packageName: adapter.name,
    version: 'unknown',
    options: {},
    ...adapter,
    capabilities: { execute: false, batch: false, pipelining: false, ...adapter.capabilities },
    source: from,
  };
}

/** `loadSpec`: what a driver process loads to get the same adapter (a name, an exact release or an absolute path). */
async function loadOne(spec, { checked, reinstall }) {
  const { label, tag, runtime: runtimeSpec, withOptions, base, options, written } = splitSpec(spec);
  let adapter = await loadBase(base, { checked, reinstall });
  // A label the user gave replaces the driver's own; a variant, runtime or tag is still added to it.
  if (label) adapter = { ...adapter, name: label };
  let loadSpec = adapter.loadSpec ?? (isRelease(base) ? adapter.name : isPath(base) ? resolve(base) : base);
  if (written.length) {
    adapter = await applyVariant(adapter, withOptions, options, written, { checked });
    loadSpec = [loadSpec, ...written].join(':');
  }
  // A driver process loads the adapter alone: its parent chose the runtime it runs on.
  if (!checked) {
    const runtime = await rowRuntime(adapter, runtimeSpec);
    adapter = { ...adapter, runtime, ...(runtimeSpec ? { name: `${adapter.name}~${runtimeSpec}` } : {}) };
    // A runtime's own client (bun-sql) is as new as the runtime.
    if (adapter.runtimeNeeded) adapter.version = runtime.version;
  }
  if (!tag) return { ...adapter, loadSpec };
  return { ...adapter, name: `${adapter.name}#${tag}`, loadSpec: `${loadSpec}#${tag}`, repeatOf: adapter.name };
}

async function applyVariant(adapter, spec, options, written, { checked }) {
  if (typeof adapter.withOptions !== 'function') {
    throw usageError(`${spec}: options are for the built-in drivers, their releases and checkouts`, `pass options inside the adapter module ${adapter.source ?? ''}`.trim());
  }
  if (!checked) {
    const unknown = await unknownOptions(adapter.packageName, adapter.dir, options);
    if (unknown?.length) {
      throw usageError(`${spec}: ${adapter.packageName} ${adapter.version} does not take the option${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`,
        `check the option names in the ${adapter.packageName} documentation (they are case-sensitive)`);
    }
  }
  const label = variantLabel(adapter.name, written);
  const { source, local, git, cacheEntries } = adapter;
  return { ...adapter.withOptions(options, label), source, local, git, cacheEntries, variant: options, overrides: fairnessOverrides(options) };
}

/** The runtime a row's processes run on: the one its spec names, the one its driver needs, or the harness's Node. */
async function rowRuntime(adapter, runtimeSpec) {
  const spec = runtimeSpec ?? adapter.runtimeNeeded ?? null;
  return spec ? resolveRuntime(spec) : harnessRuntime();
}

async function loadBase(spec, { checked, reinstall }) {
  if (BUILTIN[spec]) return (await BUILTIN[spec]()).default;
  if (isLocalSpec(spec)) return loadLocalDriver(spec, { describe: !checked });
  if (isGitSpec(spec)) return loadGitDriver(spec, { reinstall });
  if (isRelease(spec)) return loadVersionedDriver(spec, { reinstall });
  const file = resolve(spec);
  let mod;
  try {
    mod = await import(pathToFileURL(file).href);
  } catch (err) {
    throw usageError(`cannot load adapter ${spec}: ${err.message}`, 'check the module loads with `node <file>`');
  }
  return validateAdapter(mod.default, spec);
}

/** A git commit prepared in the cache (git.js), loaded as a checkout of it, labelled with the commit. */
async function loadGitDriver(spec, { reinstall }) {
  const commit = await prepareGitCheckout(spec, { reinstall });
  const adapter = await loadLocalDriver(`${commit.package}@file:${commit.dir}`, { describe: false });
  return {
    ...adapter,
    name: commit.label,
    source: `${commit.package}@git:${commit.repository}#${commit.ref}`,
    // A commit does not change in place: its replay sets and its results are its own.
    local: false,
    git: { repository: commit.repository, ref: commit.ref, commit: commit.commit },
    cacheEntries: commit.cacheEntries,
  };
}

/** `checked` (a driver process loading what its parent already checked) skips the checks. */
export async function loadDrivers(specs, { overrideFairness = false, checked = false, reinstall = false } = {}) {
  if (!checked) {
    assertDriverNames(specs, { overrideFairness });
    ({ specs } = await expandReleaseRanges(specs));
  }
  // One at a time: releases are installed by npm, which should not run twice at once on one cache.
  const drivers = [];
  for (const spec of specs) drivers.push(await loadOne(spec, { checked, reinstall }));
  const inUse = drivers.flatMap((d) => d.cacheEntries ?? []);
  if (inUse.length) pruneGitCache(defaultCacheDir(), { keep: inUse });
  const names = drivers.map((d) => d.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) {
    const from = specs.filter((s, i) => names[i] === dup);
    throw usageError(`two drivers are named '${dup}' (from ${from.join(' and ')})`,
      'give each adapter module its own name, name each release and commit once, or label a row yourself (label=spec)');
  }
  return drivers;
}
