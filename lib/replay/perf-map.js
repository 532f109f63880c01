// V8's perf map (--perf-basic-prof: /tmp/perf-<pid>.map, `<start hex> <size hex> <name>`), read to
// name the JIT code callgrind shows as bare addresses; callgrind does not read it itself. Pure.

// A JavaScript function's entry: `JS:<tier><name> <file>:<line>:<column>`, the tier ~ (Ignition),
// ^ (Sparkplug), + (Maglev), * (TurboFan); one function whatever its tier.
const JS_ENTRY = /^JS:[~^+*]?(.*?)(?: (.+):(\d+):(\d+))?$/;

/** Pure: a map entry's name → { name, file, line } (a JavaScript function's file and line, else file ''). */
export function describeEntry(raw) {
  const m = JS_ENTRY.exec(raw);
  if (!m) return { name: raw, file: '', line: null };
  return { name: m[1] || '(anonymous)', file: m[2] ?? '', line: m[3] ? Number(m[3]) : null };
}

/** Pure: resolve(address) → the entry whose code holds it (the latest written, when V8 reused the space), or null. */
export function readPerfMap(text) {
  const entries = [];
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/i.exec(line);
    if (m) entries.push({ start: parseInt(m[1], 16), end: parseInt(m[1], 16) + parseInt(m[2], 16), raw: m[3], order: entries.length });
  }
  entries.sort((a, b) => a.start - b.start || a.order - b.order);
  return (address) => {
    let lo = 0;
    let hi = entries.length - 1;
    while (lo <= hi) { // the last entry starting at or before the address
      const mid = (lo + hi) >> 1;
      if (entries[mid].start <= address) lo = mid + 1; else hi = mid - 1;
    }
    let best = null;
    for (let i = hi; i >= 0 && i > hi - 64; i--) {
      const e = entries[i];
      if (address < e.end && (!best || e.order > best.order)) best = e;
    }
    return best ? describeEntry(best.raw) : null;
  };
}

/** Pure: callgrind's name for code without a symbol ('0x000000000d067200'), as an address, or null. */
export const bareAddress = (name) => (/^0x[0-9a-f]+$/i.test(name) ? parseInt(name, 16) : null);
