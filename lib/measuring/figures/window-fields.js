// Pure: what a driver process reports of one window, as one table: how each field combines across
// --workers and what a row's `rounds` keep of it. A new per-window figure is one entry here.
import { round1, round3, sum } from '../../common/stats.js';

const total = (values) => sum(values.map((v) => v ?? 0));
const knownTotal = (values) => (values.every(Number.isFinite) ? total(values) : null);
const largest = (values) => Math.max(...values.map((v) => v ?? 0));
// Objects of counts (a bench's window counts, a window's reruns) summed key by key; anything else, the first's.
const sumFields = (objs) => (objs.every((o) => o && typeof o === 'object')
  ? Object.fromEntries(Object.keys(objs[0]).map((k) => [k, typeof objs[0][k] === 'number' ? sum(objs.map((o) => o[k] ?? 0)) : objs[0][k]]))
  : objs[0]);
const meanOf = (xs) => { const known = xs.filter(Number.isFinite); return known.length ? sum(known) / known.length : null; };

/** field: { combine(the group's values), inRound?(value, window) }. Order is the reply's and the round's. */
export const WINDOW_FIELDS = {
  opsPerSec: { combine: total, inRound: (v) => ({ opsPerSec: round1(v) }) },
  samples: { combine: total, inRound: (v) => ({ samples: v }) },
  ops: { combine: total, inRound: (v) => ({ ops: v }) }, // the kept sample's
  opsRun: { combine: total }, // every operation the window ran: lead-ins and re-runs too
  seconds: { combine: largest },
  cpuUs: { combine: total, inRound: (v, w) => ({ cpuUsPerOp: w.ops > 0 ? round1(v / w.ops) : null }) },
  gcMs: { combine: knownTotal, inRound: (v) => ({ gcMs: Number.isFinite(v) ? round3(v) : null }) },
  allocatedBytes: { combine: knownTotal },
  syscw: { combine: knownTotal },
  syscr: { combine: knownTotal },
  wchar: { combine: knownTotal },
  rchar: { combine: knownTotal },
  reruns: { combine: (values) => (values[0] ? sumFields(values) : values[0]) },
  compileWaitMs: { combine: largest },
  workload: { combine: (values) => (values[0] === undefined ? undefined : sumFields(values)) },
  // --rate: percentiles the workers' mean (their latencies merge exactly in the row's histogram).
  rate: {
    combine: (rates) => (rates.every(Boolean)
      ? { ...sumFields(rates), measureSeconds: Math.max(...rates.map((x) => x.measureSeconds)), p50Us: meanOf(rates.map((x) => x.p50Us)), p99Us: meanOf(rates.map((x) => x.p99Us)) }
      : undefined),
    inRound: (v) => (v ? { p50Us: v.p50Us, p99Us: v.p99Us } : {}),
  },
};

export const windowFigure = (measured) => Object.fromEntries(Object.keys(WINDOW_FIELDS).map((k) => [k, measured[k]]));

export const combineWindows = (parts) => Object.fromEntries(Object.entries(WINDOW_FIELDS).map(([k, f]) => [k, f.combine(parts.map((p) => p[k]))]));

export const roundOf = (w) => Object.assign({}, ...Object.entries(WINDOW_FIELDS).filter(([, f]) => f.inRound).map(([k, f]) => f.inRound(w[k], w)));
