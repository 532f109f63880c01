// The profile diff (results/profile-diff.js) as text: the functions whose instructions per operation
// changed most, and what stays unnamed. Pure.
import { fmtInt } from '../common/format-numbers.js';

/** Pure: a whole-number Δ with its sign (+, −). */
export const signed = (n) => `${n > 0 ? '+' : n < 0 ? '−' : ''}${fmtInt(Math.abs(n))}`;
/** Pure: a share in %, one decimal, or '-'. */
export const share = (p) => (p === null ? '-' : `${p.toFixed(1)} %`);

/** Pure: the diff `d` between the rows labelled `a` and `b` as lines of text. */
export function renderProfileDiff(d, { a, b, by = 'self' }) {
  const rows = d.rows.map((r) => [r.name.length > 60 ? `${r.name.slice(0, 59)}…` : r.name, r.where.length > 50 ? `…${r.where.slice(-49)}` : r.where,
    signed(r.selfDelta), signed(r.inclusiveDelta), share(r.sharePct)]);
  const head = ['function', 'file:line', 'self Δ/op', 'incl. Δ/op', by === 'inclusive' ? 'incl. share' : 'share of Δ'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [
    `${a}: ${fmtInt(d.base)} instructions/op · ${b}: ${fmtInt(d.next)} · Δ ${signed(d.totalDelta)} per operation (from the kept profiles)`,
    '',
    line(head),
    ...rows.map(line),
    '',
    `unnamed JIT code: ${signed(d.unnamed.selfDelta)}/op, ${share(d.unnamed.sharePct)} of the Δ; ${d.unnamedPct.map((p) => share(p)).join(' and ')} of the two rows' instructions`,
    ...(d.namesOnOneSide ? ["one row's profile has V8's JIT names and the other's has none: its JIT code is compared unnamed against named functions"] : []),
    ...(d.compiling ? [`V8's compile work, left out as from the count: ${d.compiling.map((n) => `${fmtInt(n)}/op`).join(' and ')}`] : []),
    ...(d.collecting?.some((n) => n > 0) ? [`V8's collector, left out as from the count: ${d.collecting.map((n) => `${fmtInt(n)}/op`).join(' and ')}`] : []),
    `self: in the function itself; inclusive: with what it calls (recursion counted once per level, as callgrind does)${by === 'inclusive' ? '; ranked by inclusive Δ, whose shares overlap (a caller holds its callees\' Δ)' : ''}`,
  ].join('\n');
}
