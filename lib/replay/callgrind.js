// Callgrind's output format, read (https://valgrind.org/docs/manual/cl-format.html): a dump's functions
// with their self and inclusive cost of the first event (Ir), relative positions and name compression
// resolved (ob/cob share one table, fl/fi/fe/cfi/cfl one, fn/cfn one). Pure.

/** Pure: a compressed name `(id) name` / `(id)` / `name` resolved through `table`. */
function named(table, value) {
  const m = /^\((\d+)\)(?:\s+(.*))?$/.exec(value);
  if (!m) return value;
  if (m[2] !== undefined) table.set(m[1], m[2]);
  return table.get(m[1]) ?? `(${m[1]})`;
}

// A recursion level callgrind appends to a name ('2, '3 …): the same function.
const baseName = (name) => name.replace(/'\d+$/, '');

/** Pure: one position field (a number, hex, +n/-n relative to `last`, or * the same). */
function position(field, last) {
  if (field === '*') return last;
  if (field[0] === '+') return last + Number(field.slice(1));
  if (field[0] === '-') return last - Number(field.slice(1));
  return Number(field);
}

/** Pure: functions (recursion levels merged; inclusive leaves out calls of itself) and calls: caller → callees. */
export function parseCallgrind(text) {
  const st = {
    objects: new Map(), files: new Map(), fns: new Map(), functions: new Map(), calls: new Map(),
    events: null, npos: 1, summary: null, totals: null, ob: '', fl: '', fn: null, cob: null, cfn: null, inCall: false, last: [],
  };
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (!line || line[0] === '#') continue;
    const c = line.charCodeAt(0);
    if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 42) { // a cost line: positions, then costs
      costLine(line, st);
      continue;
    }
    const eq = line.indexOf('=');
    const colon = line.indexOf(':');
    if (eq > 0 && (colon < 0 || eq < colon)) nameLine(line.slice(0, eq), line.slice(eq + 1), st);
    else if (colon > 0) headerLine(line.slice(0, colon), line.slice(colon + 1).trim(), st);
  }
  return { events: st.events, summary: st.summary, totals: st.totals, functions: [...st.functions.values()], calls: st.calls };
}

/** A cost line: the current function's self cost, or, after calls=, what its call cost (inclusive). */
function costLine(line, st) {
  const parts = line.split(/\s+/);
  const pos = parts.slice(0, st.npos).map((p, i) => position(p, st.last[i] ?? 0));
  st.last = pos;
  const cost = Number(parts[st.npos] ?? 0);
  const { fn } = st;
  if (!fn) return;
  if (st.inCall) {
    st.inCall = false;
    if (st.cfn !== fn.name || st.cob !== fn.object) fn.inclusive += cost;
    st.cob = null; // cob= names one call's object
  } else {
    fn.self += cost;
    fn.inclusive += cost;
    if (fn.line === null) fn.line = pos[0];
  }
}

function nameLine(key, value, st) {
  switch (key) {
    case 'ob': st.ob = named(st.objects, value); break;
    case 'fl': st.fl = named(st.files, value); break;
    case 'fi': case 'fe': named(st.files, value); break;
    case 'fn': st.fn = enterFunction(st, baseName(named(st.fns, value))); st.cob = null; break;
    case 'cob': st.cob = named(st.objects, value); break;
    case 'cfi': case 'cfl': named(st.files, value); break;
    case 'cfn':
      st.cfn = baseName(named(st.fns, value));
      if (st.cob === null) st.cob = st.ob;
      if (st.fn) (st.calls.get(st.fn.name) ?? st.calls.set(st.fn.name, new Set()).get(st.fn.name)).add(st.cfn);
      break;
    case 'calls': st.inCall = true; break; // the next cost line is the call's
    default: break; // jump=, jcnd= and others: not costs of a function
  }
}

function headerLine(key, value, st) {
  if (key === 'events') st.events = value.split(/\s+/);
  else if (key === 'positions') st.npos = value.split(/\s+/).length;
  else if (key === 'summary') st.summary = Number(value.split(/\s+/)[0]);
  else if (key === 'totals') st.totals = Number(value.split(/\s+/)[0]);
}

function enterFunction(st, name) {
  const key = `${st.ob}\0${st.fl}\0${name}`;
  let f = st.functions.get(key);
  if (!f) st.functions.set(key, f = { name, object: st.ob, file: st.fl, line: null, self: 0, inclusive: 0 });
  return f;
}

/** Pure: the roots, and every function reached from the dump's entries only through a root. */
export function insideRoots(parsed, isRoot) {
  const called = new Set([...parsed.calls.values()].flatMap((callees) => [...callees]));
  const names = new Set(parsed.functions.map((f) => f.name));
  const outside = new Set();
  const queue = [...names].filter((n) => !called.has(n) && !isRoot(n));
  for (const n of queue) outside.add(n);
  while (queue.length) {
    for (const callee of parsed.calls.get(queue.pop()) ?? []) {
      if (outside.has(callee) || isRoot(callee)) continue;
      outside.add(callee);
      queue.push(callee);
    }
  }
  return new Set([...names].filter((n) => !outside.has(n)));
}

/** Pure: a dump's event totals { Ir, Dr, … } from its `summary:` (or `totals:`) line, its functions unread. */
export function parseEventTotals(text) {
  const events = /^events:[ \t]*(.+)$/m.exec(text)?.[1].trim().split(/\s+/);
  const values = (/^summary:[ \t]*(.+)$/m.exec(text) ?? /^totals:[ \t]*(.+)$/m.exec(text))?.[1].trim().split(/\s+/).map(Number);
  if (!events || !values) return null;
  return Object.fromEntries(events.map((name, i) => [name, values[i] ?? 0]));
}

export const selfSum = (parsed) => parsed.functions.reduce((n, f) => n + f.self, 0);

/** Pure: event totals, and the inclusive cost of calls into roots by `classify(name)`'s group; nested roots count once. */
export function rootedGroups(text, classify, names = []) {
  const totals = parseEventTotals(text);
  if (!totals) return null;
  const events = Object.keys(totals);
  const sums = new Map(names.map((g) => [g, new Array(events.length).fill(0)]));
  const fns = new Map();
  let npos = 1;
  let callerRoot = false;
  let pending = null; // the group of a call into a root from outside one: its next cost line is the call's cost
  let inCall = false;
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (!line || line[0] === '#') continue;
    const c = line.charCodeAt(0);
    if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 42) {
      if (inCall) {
        if (pending) {
          const parts = line.split(/\s+/);
          if (!sums.has(pending)) sums.set(pending, new Array(events.length).fill(0));
          const sum = sums.get(pending);
          for (let i = 0; i < events.length; i++) sum[i] += Number(parts[npos + i] ?? 0);
        }
        inCall = false;
        pending = null;
      }
      continue;
    }
    if (line.startsWith('positions:')) npos = line.slice(10).trim().split(/\s+/).length;
    else if (line.startsWith('fn=')) callerRoot = classify(baseName(named(fns, line.slice(3)))) !== null;
    else if (line.startsWith('cfn=')) pending = callerRoot ? null : classify(baseName(named(fns, line.slice(4))));
    else if (line.startsWith('calls=')) inCall = true;
  }
  const groups = Object.fromEntries([...sums].map(([g, sum]) => [g, Object.fromEntries(events.map((n, i) => [n, sum[i]]))]));
  return { totals, groups };
}

// V8's compile, tier-up and deoptimization entries. A count leaves their cost out: when a function is
// compiled is not what an operation costs, and a compile's cost moved from process to process.
export const JIT_ENTRY = /^v8::internal::(?:Runtime_(?:Compile\w*|InstallBaselineCode|NotifyDeoptimized|BytecodeBudgetInterrupt\w*)|Deoptimizer::New|Deoptimizer::ComputeOutputFrames)\(/;

export const isJitEntry = (name) => JIT_ENTRY.test(name);

/** Pure: how many calls a dump holds into functions `matches` names (its calls= lines'). */
export function callsInto(text, matches) {
  const fns = new Map();
  let into = false;
  let n = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('cfn=')) into = matches(baseName(named(fns, line.slice(4).trimEnd())));
    else if (line.startsWith('fn=')) named(fns, line.slice(3).trimEnd());
    else if (into && line.startsWith('calls=')) {
      n += Number(line.slice(6).split(/\s+/)[0]);
      into = false;
    }
  }
  return n;
}

// The collector's entry. A count leaves its cost out: where a collection falls moves with code the
// bench never runs; the bytes allocated stand for its work.
export const GC_ENTRY = /^v8::internal::Heap::CollectGarbage\(/;

export const isGcEntry = (name) => GC_ENTRY.test(name);

export const engineEntry = (name) => (isJitEntry(name) ? 'jit' : isGcEntry(name) ? 'gc' : null);

// A full collection (mark-compact) of V8's heap: a count's process is set to make none in its windows
// (valgrind.js); one there deoptimizes code that embeds objects it frees.
export const isFullCollection = (name) => /^v8::internal::MarkCompactCollector::CollectGarbage\(/.test(name);
