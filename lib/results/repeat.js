// A run repeated from its results file (--from): what differs between the machine, Node and server
// it ran on and this one's. (The options that repeat it: lib/cli/option-files.js.)

const FACTS = [
  ['Node', (r) => r.env?.node],
  ['CPU model', (r) => r.env?.cpuModel],
  ['CPUs', (r) => r.env?.cpus],
  ['platform', (r) => (r.env?.platform ? `${r.env.platform} ${r.env.arch ?? ''}`.trim() : undefined)],
  ['server', (r) => (r.server?.version ? `${r.server.kind ? `${r.server.kind} ` : ''}${r.server.version}` : undefined)],
  ['harness', (r) => (r.env?.harness ? `${r.env.harness.version}${r.env.harness.commit ? ` (${r.env.harness.commit.slice(0, 12)})` : ''}` : undefined)],
];

/** Pure: one line per fact (Node, CPU, platform, server, harness, a driver's version) that differs between the original run and this one. */
export function describeDifferences(original, current, file) {
  const lines = [];
  for (const [label, of] of FACTS) {
    const was = of(original);
    const now = of(current);
    if (was !== undefined && String(was) !== String(now)) lines.push(`--from ${file}: ${label} differs: ${was} then, ${now ?? 'unknown'} now`);
  }
  // A row's driver resolved to another version (another install, a git ref that moved).
  const versionOf = (d) => `${d.version ?? 'unknown'}${d.git?.commit ? ` (${d.git.commit.slice(0, 12)})` : ''}`;
  for (const d of original.drivers ?? []) {
    const now = (current.drivers ?? []).find((c) => c.name === d.name);
    if (now && versionOf(now) !== versionOf(d)) lines.push(`--from ${file}: driver ${d.name} differs: ${versionOf(d)} then, ${versionOf(now)} now`);
  }
  return lines;
}
