// Which drivers a run compares: built-in adapters by name, or adapter modules by path.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { usageError } from '../common/errors.js';
import { assertVersionedSpec, isVersionedSpec, loadVersionedDriver } from './versions.js';
import { inspectCheckout, isLocalSpec, loadLocalDriver } from './local.js';
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

/** The drivers compared by default. */
export const BUILTIN_DRIVERS = ['mysql', 'mysql2', 'mariadb'];

const isPath = (spec) => !isLocalSpec(spec) && /^(\.{1,2}\/|\/)|\.(m?js)$/.test(spec);
const isRelease = (spec) => !isPath(spec) && !isLocalSpec(spec) && isVersionedSpec(spec);

/**
 * `mysql2#2`: a second process of the same driver, as a row of its own (an A/A comparison).
 * Returns { base, tag } (tag null for a plain spec).
 */
export function splitRepeat(spec) {
  const m = /^(.+?)#([\w.-]{1,20})$/.exec(spec);
  return m ? { base: m[1], tag: m[2] } : { base: spec, tag: null };
}

/** Check the names before anything starts: built-in drivers, releases, checkouts, or adapter files that exist. */
export function assertDriverNames(specs, { overrideFairness = false } = {}) {
  if (specs.length === 0) throw usageError('no driver selected', `choose from: ${BUILTIN_DRIVERS.join(', ')}`);
  const variants = specs.map((s) => {
    const { base, runtime } = splitRuntime(splitRepeat(s).base);
    if (runtime) parseRuntime(runtime);
    return { spec: s, runtime, ...splitVariant(base) };
  });
  const bases = variants.map((v) => v.base);
  const unknown = bases.filter((s) => !BUILTIN[s] && !isPath(s) && !isRelease(s) && !isLocalSpec(s));
  if (unknown.length) {
    throw usageError(`unknown driver${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`,
      `valid drivers: ${BUILTIN_DRIVERS.join(', ')}, floor (the reference client), bun-sql (Bun's client, on Bun), a release of one (mysql2@3.9.0, mariadb@latest), a local checkout (mysql2@file:../node-mysql2), a path to an adapter module (./my-adapter.js); any of these with :option=value for a variant (mysql2:disableEval=true), ~runtime for its processes on another runtime (mysql2~node@24, mysql2~bun), or with #tag for a second process of it (mysql2#2)`);
  }
  const offRuntime = variants.find((v) => v.base === 'bun-sql' && v.runtime && parseRuntime(v.runtime).kind !== 'bun');
  if (offRuntime) throw usageError(`${offRuntime.spec}: bun-sql is Bun's own client and runs only on Bun`, 'write bun-sql (or bun-sql~bun@<version>)');
  for (const v of variants) if (v.written.length) assertAllowedOptions(v.spec, v.options, { overrideFairness });
  bases.filter(isRelease).forEach(assertVersionedSpec);
  bases.filter(isLocalSpec).forEach(inspectCheckout);
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

/**
 * Load one driver. `loadSpec` is what a driver process loads to get the same adapter: a built-in
 * name, an exact release (installed by now), or an absolute path; with `#tag` for a repeat.
 */
async function loadOne(spec, { checked }) {
  const { base: withRuntime, tag } = splitRepeat(spec);
  const { base: withOptions, runtime: runtimeSpec } = splitRuntime(withRuntime);
  const { base, options, written } = splitVariant(withOptions);
  let adapter = await loadBase(base);
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

/** A driver with connection options of its own, checked against what the driver itself accepts. */
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
  return { ...adapter.withOptions(options, label), source: adapter.source, local: adapter.local, variant: options, overrides: fairnessOverrides(options) };
}

/** The runtime a row's processes run on: the one its spec names, the one its driver needs, or the harness's Node. */
async function rowRuntime(adapter, runtimeSpec) {
  const spec = runtimeSpec ?? adapter.runtimeNeeded ?? null;
  return spec ? resolveRuntime(spec) : harnessRuntime();
}

async function loadBase(spec) {
  if (BUILTIN[spec]) return (await BUILTIN[spec]()).default;
  if (isLocalSpec(spec)) return loadLocalDriver(spec);
  // A release from the npm registry, installed into the cache (resolved and checked before anything runs).
  if (isRelease(spec)) return loadVersionedDriver(spec);
  const file = resolve(spec);
  let mod;
  try {
    mod = await import(pathToFileURL(file).href);
  } catch (err) {
    throw usageError(`cannot load adapter ${spec}: ${err.message}`, 'check the module loads with `node <file>`');
  }
  return validateAdapter(mod.default, spec);
}

/**
 * Load the drivers of a run. `overrideFairness` allows variants that change an option the fairness
 * rules fix; `checked` (a driver process loading what its parent already checked) skips the checks.
 */
export async function loadDrivers(specs, { overrideFairness = false, checked = false } = {}) {
  if (!checked) assertDriverNames(specs, { overrideFairness });
  // One at a time: releases are installed by npm, which should not run twice at once on one cache.
  const drivers = [];
  for (const spec of specs) drivers.push(await loadOne(spec, { checked }));
  const names = drivers.map((d) => d.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) {
    const from = specs.filter((s, i) => names[i] === dup);
    throw usageError(`two drivers are named '${dup}' (from ${from.join(' and ')})`,
      'give each adapter module its own name, and name each release once');
  }
  return drivers;
}
