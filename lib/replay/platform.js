// A count run's platform fingerprint (settings.count.platform): what besides the drivers and the replay
// set can move a count. compare (results/compare-counts.js) widens its noise floor when it differs.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { harnessCode } from '../common/harness.js';

export const cpuVendor = (cpuinfo) => /^vendor_id\s*:\s*(.+)$/m.exec(cpuinfo ?? '')?.[1].trim() ?? null;

/** Pure: Node's build in a few words: what changes the code a count runs through (shared: a distribution's Node). */
export function nodeBuild(v = {}) {
  const shared = Object.keys(v).filter((k) => k.startsWith('node_shared_') && v[k] === true).map((k) => k.slice('node_shared_'.length));
  return [
    Number(v.is_debug) ? 'debug' : 'release',
    Number(v.clang) ? 'clang' : 'gcc',
    ...(v.enable_lto === true ? ['lto'] : []),
    ...(v.enable_pgo_use === true ? ['pgo'] : []),
    ...(Number(v.v8_enable_pointer_compression) ? ['pointer-compression'] : []),
    ...(shared.length ? [`shared ${shared.sort().join(',')}`] : []),
  ].join(' ');
}

export const describePlatform = ({ cpuModel, cpuinfo, kernel, glibc, node, arch, variables, harness, cacheConfig }) => ({
  cpu: { vendor: cpuVendor(cpuinfo), model: cpuModel?.trim() || 'unknown' },
  kernel,
  glibc: glibc ?? null,
  node: { version: node, arch, build: nodeBuild(variables) },
  harness,
  ...(cacheConfig ? { cacheConfig } : {}),
});

const readOrNull = (file) => {
  try { return readFileSync(file, 'utf8'); } catch { return null; }
};

export function hostPlatform(counter) {
  return describePlatform({
    cpuModel: os.cpus()[0]?.model,
    cpuinfo: readOrNull('/proc/cpuinfo'),
    kernel: os.release(),
    glibc: process.report?.getReport().header.glibcVersionRuntime,
    node: process.version,
    arch: process.arch,
    variables: process.config.variables,
    harness: harnessCode(),
    cacheConfig: typeof counter.cacheConfig === 'function' ? counter.cacheConfig() : counter.cacheConfig,
  });
}
