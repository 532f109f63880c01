// Release ranges as rows: `mysql2@3.0.0..3.24.5[:minor|:last-of-minor][:pre]` is each release published
// between the two, both included, as a row of its own (docs/comparing.md, "A range of releases").
// The grammar and the choice are pure; only expandReleaseRanges asks the registry.
import { usageError, installError } from '../common/errors.js';
import { npmReason, runNpm } from './versions.js';
import { SEMVER, compareVersions } from '../common/semver.js';

export { compareVersions };

const RANGE = /^(?:([A-Za-z_][\w.+-]{0,59})=)?(mysql|mysql2|mariadb)@([^:@]+?)\.\.([^:@]+?)((?::[\w-]+)*)$/;
export const RANGE_STEPS = ['all', 'minor', 'last-of-minor'];
const HINT = 'write <driver>@<from>..<to>[:minor|:last-of-minor][:pre] with exact versions, e.g. mysql2@3.0.0..3.24.5:minor';

/** Is `spec` written as a release range (`mysql2@3.0.0..3.24.5`, with or without a step)? Syntax only. */
export const isReleaseRange = (spec) => /^(?:[A-Za-z_][\w.+-]{0,59}=)?(?:mysql|mysql2|mariadb)@[^:]*\.\./.test(spec);

/**
 * `mysql2@3.0.0..3.24.5:minor` -> { package, from, to, step: 'minor', pre: false, spec }. Pure; throws a
 * usage error for anything else written with '..' (a label, a bad version, an unknown step, from > to).
 */
export function parseReleaseRange(spec) {
  const m = RANGE.exec(spec);
  if (!m) throw usageError(`'${spec}' is not a release range`, HINT);
  const [, label, pkg, from, to, tail] = m;
  if (label) throw usageError(`'${spec}': a release range is many rows, each labelled with its version, and takes no label`, HINT);
  for (const v of [from, to]) if (!SEMVER.test(v)) throw usageError(`'${spec}': '${v}' is not an exact version (x.y.z)`, HINT);
  if (compareVersions(from, to) > 0) throw usageError(`'${spec}': ${from} comes after ${to}`, `write the older release first: ${pkg}@${to}..${from}`);
  const words = tail.split(':').filter(Boolean);
  const steps = words.filter((w) => w !== 'pre');
  const unknown = steps.filter((w) => !RANGE_STEPS.includes(w));
  if (unknown.length || steps.length > 1) {
    throw usageError(`'${spec}': ${unknown.length ? `unknown step '${unknown[0]}'` : 'one step only'}`, `a step is one of ${RANGE_STEPS.map((s) => `:${s}`).join(', ')}, with :pre to keep pre-releases`);
  }
  return { package: pkg, from, to, step: steps[0] ?? 'all', pre: words.includes('pre'), spec };
}

const minorOf = (v) => SEMVER.exec(v).slice(1, 3).join('.');

/** The versions of a registry's list that a parsed range takes, semver-ordered. Pure. */
export function selectReleases(versions, range) {
  const inRange = [...new Set(versions)].filter((v) => SEMVER.test(v))
    .filter((v) => range.pre || !SEMVER.exec(v)[4])
    .filter((v) => compareVersions(v, range.from) >= 0 && compareVersions(v, range.to) <= 0)
    .sort(compareVersions);
  if (range.step === 'all') return inRange;
  const byMinor = new Map();
  for (const v of inRange) {
    const key = minorOf(v);
    if (!byMinor.has(key) || range.step === 'last-of-minor') byMinor.set(key, v);
  }
  return [...byMinor.values()];
}

/** Every version of `pkg` published on the npm registry (`npm view <pkg> versions --json`). */
export async function publishedVersions(pkg, { npm = runNpm } = {}) {
  const r = await npm(['view', pkg, 'versions', '--json']);
  let list = null;
  try { list = JSON.parse(r.stdout || 'null'); } catch { /* not JSON */ }
  if (r.code !== 0 || !(Array.isArray(list) || typeof list === 'string')) {
    throw installError(`cannot list the releases of ${pkg} on the npm registry: ${npmReason(r)}`,
      'check the network access to the registry (npm config get registry), or name the releases one by one');
  }
  return Array.isArray(list) ? list : [list];
}

/**
 * --drivers with each range replaced by its releases (`mysql2@3.0.0`, …), in place; other specs as they are.
 * Returns { specs, ranges: [{ spec, package, releases }] }. A range that takes no release is a usage error.
 */
export async function expandReleaseRanges(specs, { npm = runNpm } = {}) {
  const ranges = [];
  const out = [];
  const listed = new Map();
  for (const spec of specs) {
    if (!isReleaseRange(spec)) { out.push(spec); continue; }
    const range = parseReleaseRange(spec);
    if (!listed.has(range.package)) listed.set(range.package, await publishedVersions(range.package, { npm }));
    const releases = selectReleases(listed.get(range.package), range);
    if (releases.length === 0) {
      throw usageError(`release range ${spec} holds no published release${range.pre ? '' : ' (pre-releases left out)'}`,
        `see the published versions with \`npm view ${range.package} versions\``);
    }
    ranges.push({ spec, package: range.package, step: range.step, releases });
    out.push(...releases.map((v) => `${range.package}@${v}`).filter((s) => !out.includes(s)));
  }
  return { specs: out, ranges };
}
