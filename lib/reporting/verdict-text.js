// Pure: the verdict (results/verdict.js) as the few plain lines every report opens with, for the terminal,
// Markdown and HTML. Each Δ is written as the table writes it, and a count run says "fewer instructions"
// or "more" (its + is more work), never "faster". A release history's verdict is its steps.
import { verdict } from '../results/verdict.js';
import { counterOf } from '../replay/counters/index.js';
import { deltaMargin } from './format.js';
import { fmtStepChange } from './history.js';
import { fmtOps, fmtPct, fmtSignedPct, fmtUs } from '../common/format-numbers.js';
import { esc } from './svg.js';

/** A claim's Δ as the table prints it: `+18.2 % ±5.7` (`~ ` before a tie). */
export function claimDelta(c, digits = 1) {
  const margin = deltaMargin(c);
  const text = `${fmtSignedPct(c.deltaPct, digits)}${margin === null ? '' : ` ±${margin.toFixed(digits)}`}`;
  return c.kind === 'tied' ? `~ ${text}` : text;
}

/** Items grouped by key, in the order their keys first appear. */
function groupBy(items, key) {
  const groups = new Map();
  for (const item of items) {
    const k = key(item);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(item);
  }
  return [...groups.values()];
}

const andList = (names) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);

function wordsOf(v) {
  const plus = `faster than the bench's reference${v.replayed ? ' (client side only: replayed, no server)' : ''}`;
  if (!v.counted) return { fastest: 'fastest', faster: 'faster than', slower: 'slower than', over: 'over', plus, margin: 'the run\'s resolution' };
  const noun = counterOf({ what: v.what }).noun;
  return { fastest: `fewest ${noun}`, faster: `fewer ${noun} than`, slower: `more ${noun} than`, over: 'against', plus: `more ${noun} than the bench's reference`, margin: 'the count\'s noise floor' };
}

/** The winners' lines: per driver, the benches it is fastest on, each with the Δ that shows it. */
function winnerLines(v, words, digits, shown) {
  const won = v.benches.filter((b) => b.fastest);
  return groupBy(won, (b) => b.fastest).map((group) => {
    const driver = group[0].fastest;
    const parts = groupBy(group, (b) => (b.fastest === b.reference ? `\n${b.bench}` : b.reference)).map((benches) => {
      const b0 = benches[0];
      if (b0.fastest === b0.reference) {
        // The reference itself: every other row is significantly behind it; the closest one shows by how much.
        const closest = v.claims.filter((c) => c.bench === b0.bench && c.kind === 'slower').sort((a, b) => Math.abs(a.deltaPct) - Math.abs(b.deltaPct))[0];
        shown.add(closest);
        return `${b0.bench} (next ${closest.driver} ${claimDelta(closest, digits)})`;
      }
      const segments = benches.map((b) => {
        const c = v.claims.find((x) => x.bench === b.bench && x.driver === driver && x.kind === 'faster');
        shown.add(c);
        return `${b.bench} ${claimDelta(c, digits)}`;
      });
      return `${segments.join(', ')} ${words.over} ${b0.reference}`;
    });
    return `${driver} ${words.fastest}: ${parts.join('; ')}`;
  });
}

/** Benches where some rows beat the reference but none beats every other row: one line per reference. */
function openLines(v, words, digits, shown) {
  const open = v.claims.filter((c) => c.kind === 'faster' && !shown.has(c));
  return groupBy(open, (c) => c.reference).map((claims) => {
    const benches = groupBy(claims, (c) => c.bench).map((cs) => {
      cs.forEach((c) => shown.add(c));
      return `${cs[0].bench} (${cs.map((c) => `${c.driver} ${claimDelta(c, digits)}`).join(', ')})`;
    });
    return `${words.faster} ${claims[0].reference}, no single ${words.fastest}: ${benches.join(', ')}`;
  });
}

/** Significant Δs below 0 not shown yet: per driver and reference. */
function slowerLines(v, words, digits, shown) {
  const slower = v.claims.filter((c) => c.kind === 'slower' && !shown.has(c));
  return groupBy(slower, (c) => `${c.driver}\n${c.reference}`).map((claims) => {
    claims.forEach((c) => shown.add(c));
    return `${claims[0].driver} ${words.slower} ${claims[0].reference}: ${claims.map((c) => `${c.bench} ${claimDelta(c, digits)}`).join(', ')}`;
  });
}

/** Ties: per reference, each row that no significant Δ separates from it. */
function tiedLines(v, words, digits) {
  const tied = v.claims.filter((c) => c.kind === 'tied');
  return groupBy(tied, (c) => c.reference).map((claims) => `tied with ${claims[0].reference} (~: within ${words.margin}${v.marginPct === null ? '' : ` of ${fmtPct(v.marginPct, digits)}`} or an interval across 0): `
    + `${claims.map((c) => `${c.driver} on ${c.bench} (${claimDelta(c, digits)})`).join(', ')}`);
}

const range = ([lo, hi]) => (fmtUs(lo) === fmtUs(hi) ? `${fmtUs(lo)} µs` : `${fmtUs(lo)}–${fmtUs(hi)} µs`);

function networkLines(network) {
  if (!network) return [];
  const where = network.via === 'process' ? 'held in the driver processes' : 'through a proxy';
  const head = `network: +${network.rttMs} ms round trip (${where}): every Δ here is at that round trip`;
  const untuned = network.untuned?.length ? `; ${network.untuned.join(', ')}: a row's hold missed the round trip in its tuning, no comparison` : '';
  if (!network.benches.length && untuned) return [`${head}${untuned}`];
  if (!network.benches.length) return [`${head}; the run has no loopback figures beside it (compare it with a loopback run)`];
  const benches = network.benches.map((b) => `${b.bench} ${range(b.loopbackUs)} (${fmtPct(b.loopbackApartPct)} apart) → ${range(b.heldUs)} (${fmtPct(b.heldApartPct)} apart)`);
  return [`${head}; the drivers' p50s, loopback → held (the hold's tuning, same minute, no interval): ${benches.join(', ')}${untuned}`];
}

function differenceLines(differences) {
  const lines = [];
  for (const d of differences.filter((x) => x.kind === 'n/a' || x.kind === 'failed')) {
    lines.push(`${d.drivers[0]} ${d.kind === 'n/a' ? 'n/a' : 'FAILED'} on ${d.benches.join(', ')}: ${d.reason}`);
  }
  for (const d of differences.filter((x) => x.kind === 'tls')) {
    lines.push(`${d.drivers[0]}: no TLS host-name check (${d.check.replace(/\s*\(.*\)$/, '')}: it accepts a certificate for another host from a trusted CA; `
      + `${d.source === 'run' ? 'as connect_tls recorded it in this run' : 'docs/benches.md'})`);
  }
  const types = differences.filter((x) => x.kind === 'types');
  if (types.length) {
    const columns = types.map((t) => `${t.column}: ${groupBy(t.seen, (s) => s.representation).map((g) => `${andList(g.map((s) => s.driver))} ${g[0].representation}`).join(', ')}`);
    lines.push(`${types[0].bench} returns types differently: ${columns.join('; ')} (its representations table)`);
  }
  return lines;
}

/** A release history's steps, one line per bench, then the whole range's change. */
function historyLines(v, unit) {
  return v.history.benches.map((h) => {
    const total = `${h.total.from} → ${h.total.to}: ${fmtStepChange(h.total.changePct)} in all`;
    const unjudged = h.unjudged ? `; ${h.unjudged} pair${h.unjudged === 1 ? '' : 's'} of releases had no interval to judge` : '';
    if (!h.steps.length) {
      const noise = h.counted ? `the count's noise floor (±${h.floorPct} %)` : 'the noise (their paired Δ intervals overlap)';
      return `${h.bench}: no step (${total}): each release within ${noise} of the one before${unjudged}`;
    }
    const subject = (label) => (v.history.commits?.[label]?.subject ? ` (${v.history.commits[label].subject})` : '');
    const steps = h.steps.map((s, i) => `${s.from} → ${s.to}${subject(s.to)}: ${fmtOps(s.fromValue)} → ${fmtOps(s.toValue)}${i === 0 ? ` ${unit}` : ''}, `
      + `${fmtStepChange(s.changePct)}, ${s.better ? 'better' : 'worse'}`);
    return `${h.bench}: ${steps.join('; ')} (${h.steps.length} step${h.steps.length === 1 ? '' : 's'}; ${total})${unjudged}`;
  });
}

function historyHeading(v) {
  const [what, items] = v.history.commits ? ['commit history', 'commits'] : ['release history', 'releases'];
  if (!v.counted) return `${what}: its steps, consecutive ${items} whose paired Δ intervals do not overlap; + is faster (ops/s)`;
  const noun = counterOf({ what: v.what }).noun;
  return `${what}: its steps, consecutive ${items} beyond the count's noise floor; + is more ${noun}`;
}

/** Pure: { heading, lines, verdict }, no lines when it has nothing to say. */
export function verdictLines(results) {
  const v = verdict(results);
  if (v.history) {
    const unit = v.counted ? counterOf({ what: v.what }).unit : 'ops/s';
    return { heading: historyHeading(v), lines: [...historyLines(v, unit), ...networkLines(v.network), ...differenceLines(v.differences)], verdict: v };
  }
  const words = wordsOf(v);
  const digits = v.counted ? 2 : 1;
  const shown = new Set();
  const lines = [
    ...winnerLines(v, words, digits, shown),
    ...openLines(v, words, digits, shown),
    ...slowerLines(v, words, digits, shown),
    ...tiedLines(v, words, digits),
    ...(v.uncalled.length ? [`no Δ called on ${v.uncalled.join(', ')}: too few rounds for an interval`] : []),
    ...networkLines(v.network),
    ...differenceLines(v.differences),
  ];
  const heading = `significant Δs only; + is ${words.plus}; ± as in the table`;
  return { heading, lines, verdict: v };
}

export function renderVerdictText(results) {
  const { heading, lines } = verdictLines(results);
  return lines.length ? `VERDICT (${heading})\n${lines.map((l) => `  ${l}\n`).join('')}\n` : '';
}

/** The Markdown summary's opening lines (an empty list when there are none); `cell` escapes a line. */
export function verdictMarkdown(results, cell) {
  const { heading, lines } = verdictLines(results);
  return lines.length ? [`**Verdict** (${cell(heading)}):`, '', ...lines.map((l) => `- ${cell(l)}`), ''] : [];
}

export function verdictHtml(results) {
  const { heading, lines } = verdictLines(results);
  if (!lines.length) return '';
  return `<section class="verdict" id="verdict"><h2>Verdict</h2><p class="sub">${esc(heading)}</p>`
    + `<ul>${lines.map((l) => `<li>${esc(l)}</li>`).join('')}</ul></section>`;
}
