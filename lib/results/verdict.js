// The verdict a report opens with, as structured claims (pure), resting only on figures the run's tables
// carry: every speed claim names the row, the reference, the deltaPct and the deltaCI it rests on.
// Rendering: reporting/verdict-text.js.
import { CERTIFICATE_CHECKS } from '../../benchs/index.js';
import { countFloorPct } from './counts.js';
import { releaseHistory } from './history.js';

/** A bench entry's label: its name, with its level when the run measured several (`do @4`). */
export function benchLabel(bench, results) {
  const multiLevel = [].concat(results.settings?.concurrency ?? 1).length > 1;
  return multiLevel && bench.concurrency !== undefined ? `${bench.name} @${bench.concurrency}` : bench.name;
}

/** The margin a Δ must clear here: the run's resolution, or for counts the bench's noise floor. */
const marginOf = (results, bench) => (results.settings?.count ? countFloorPct(results.settings.count, bench.name) : results.resolution?.pct ?? 0);

/**
 * The driver fastest on a bench by its Δs alone, or null: the reference when every other row is behind
 * it; another row when it is ahead and every other one is behind the reference or lies wholly below it by
 * more than the margin (the run's intervals hold together). `lower`: a count's Δs (+ is more work).
 */
export function fastestOf(reference, rows, marginPct, { lower = false } = {}) {
  const gain = (r) => (lower ? -r.deltaPct : r.deltaPct);
  const bounds = (r) => (lower ? [-r.deltaCI[1], -r.deltaCI[0]] : r.deltaCI);
  const others = rows.filter((r) => r.driver !== reference);
  if (others.length === 0) return null;
  if (others.every((r) => r.deltaSignificant === true && gain(r) < 0)) return reference;
  const ahead = others.filter((r) => r.deltaSignificant === true && gain(r) > 0 && r.deltaCI);
  const wins = ahead.filter((w) => others.every((x) => x === w
    || (x.deltaSignificant === true && gain(x) < 0)
    || (x.deltaCI && bounds(w)[0] > bounds(x)[1] && gain(w) - gain(x) > marginPct)));
  return wins.length === 1 ? wins[0].driver : null;
}

/** A speed claim: one row's Δ against its bench's reference, with the figures it rests on. */
const claim = (kind, label, bench, row, fastest = false) => ({
  kind, bench: label, benchName: bench.name, concurrency: bench.concurrency, driver: row.driver, reference: bench.deltaReference,
  deltaPct: row.deltaPct, deltaCI: row.deltaCI, fastest,
});

/** Per closed-loop bench, the claims its Δs allow; benches whose Δs have no interval are `uncalled`. */
function speedClaims(results) {
  const benches = [];
  const claims = [];
  const uncalled = [];
  const count = results.settings?.count;
  for (const bench of (results.benches ?? []).filter((b) => !b.rate)) {
    const ref = bench.deltaReference;
    if (!ref) continue;
    const label = benchLabel(bench, results);
    const rows = bench.results.filter((r) => r.ok && Number.isFinite(r.deltaPct));
    const others = rows.filter((r) => r.driver !== ref);
    if (others.length === 0) continue;
    const fastest = fastestOf(ref, rows, marginOf(results, bench), { lower: Boolean(count) });
    // A count's + is more work: behind the reference.
    const gain = (row) => (count ? -row.deltaPct : row.deltaPct);
    const own = [];
    for (const row of others) {
      if (row.deltaSignificant === true && gain(row) < 0) own.push(claim('slower', label, bench, row, fastest === ref));
      else if (row.deltaSignificant === true && gain(row) > 0 && (fastest === null || fastest === row.driver)) own.push(claim('faster', label, bench, row, fastest === row.driver));
      else if (row.deltaSignificant === false && row.deltaCI && !row.count?.unsteady && !(count && bench.results.find((r) => r.driver === ref)?.count?.unsteady)) own.push(claim('tied', label, bench, row));
    }
    if (others.every((r) => r.deltaSignificant !== true && !r.deltaCI)) uncalled.push(label);
    benches.push({ bench: label, reference: ref, fastest });
    claims.push(...own);
  }
  return { benches, claims, uncalled };
}

function historyClaim(results) {
  const history = releaseHistory(results);
  return history?.benches.length ? history : null;
}

/** --rtt, per bench: the drivers' p50s unheld and held from the same minute, and how far apart; null on loopback. */
function networkClaim(results) {
  const network = results.settings?.network;
  if (!(network?.rttMs > 0)) return null;
  const benches = [];
  const untuned = [];
  for (const bench of (results.benches ?? []).filter((b) => !b.rate)) {
    const measured = bench.results.filter((r) => r.ok && r.held?.loopbackP50Us > 0 && r.held?.heldP50Us > 0);
    // A hold whose tuning missed its round trip (within: false) held another one: not comparable.
    if (measured.some((r) => r.held.within === false)) {
      untuned.push(benchLabel(bench, results));
      continue;
    }
    const rows = measured;
    if (rows.length < 2) continue;
    const apart = (values) => (Math.max(...values) / Math.min(...values) - 1) * 100;
    const loopback = rows.map((r) => r.held.loopbackP50Us);
    const held = rows.map((r) => r.held.heldP50Us);
    benches.push({
      bench: benchLabel(bench, results),
      drivers: rows.map((r) => ({ driver: r.driver, loopbackP50Us: r.held.loopbackP50Us, heldP50Us: r.held.heldP50Us })),
      loopbackUs: [Math.min(...loopback), Math.max(...loopback)],
      heldUs: [Math.min(...held), Math.max(...held)],
      loopbackApartPct: apart(loopback),
      heldApartPct: apart(held),
    });
  }
  return { rttMs: network.rttMs, via: network.via ?? 'proxy', benches, untuned };
}

const reasonOf = (row) => String(row.error ?? '').replace(/^not supported by driver: /, '');

/** n/a rows (grouped by driver and reason) and failed rows, in bench order. */
function missingRows(results) {
  const out = [];
  const na = new Map();
  for (const bench of results.benches ?? []) {
    const label = benchLabel(bench, results);
    for (const row of bench.results) {
      if (row.ok) continue;
      if (row.status === 'n/a') {
        const key = `${row.driver}\n${reasonOf(row)}`;
        if (!na.has(key)) {
          const entry = { kind: 'n/a', drivers: [row.driver], benches: [], reason: reasonOf(row) };
          na.set(key, entry);
          out.push(entry);
        }
        if (!na.get(key).benches.includes(label)) na.get(key).benches.push(label);
      } else {
        out.push({ kind: 'failed', drivers: [row.driver], benches: [label], reason: reasonOf(row) });
      }
    }
  }
  return out;
}

/** Drivers that verify a certificate without its host name: as connect_tls recorded, else as benchs/connect.js knows. */
function tlsChecks(results, checks = CERTIFICATE_CHECKS) {
  const recorded = new Map();
  for (const bench of (results.benches ?? []).filter((b) => b.name === 'connect_tls')) {
    for (const row of bench.results) if (row.ok && row.workload?.certificateCheck) recorded.set(row.driver, row.workload.certificateCheck);
  }
  const out = [];
  for (const d of results.drivers ?? []) {
    const inRun = recorded.get(d.name);
    const check = inRun ?? checks[d.package ?? d.name]?.checks;
    if (check && !/host name/.test(check)) out.push({ kind: 'tls', drivers: [d.name], check, source: inRun ? 'run' : 'known' });
  }
  return out;
}

/** select_types: the column types whose representations differ between the drivers that returned them. */
function typeDifferences(results) {
  const out = [];
  for (const bench of (results.benches ?? []).filter((b) => b.name === 'select_types')) {
    const rows = bench.results.filter((r) => r.ok && r.workload?.representations);
    if (rows.length < 2) continue;
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r.workload.representations)))];
    for (const column of columns) {
      const seen = rows.map((r) => ({ driver: r.driver, representation: r.workload.representations[column] ?? '-' }));
      if (new Set(seen.map((s) => s.representation)).size > 1) out.push({ kind: 'types', bench: benchLabel(bench, results), column, drivers: seen.map((s) => s.driver), seen });
    }
  }
  return out;
}

/**
 * Deltas applied. `counted`: its claims are about fewer instructions, never speed; `replayed`: a timed
 * --replay run, whose speed is the client's alone; `history`: a release history's steps, then the answer.
 */
export function verdict(results, { certificateChecks = CERTIFICATE_CHECKS } = {}) {
  const count = results.settings?.count ?? null;
  const { benches, claims, uncalled } = speedClaims(results);
  return {
    counted: Boolean(count),
    replayed: Boolean(results.settings?.replay) && !count,
    what: count?.what ?? null,
    marginPct: count ? count.noiseFloorPct ?? null : results.resolution?.pct ?? null,
    benches,
    claims,
    uncalled,
    history: historyClaim(results),
    network: networkClaim(results),
    differences: [...missingRows(results), ...tlsChecks(results, certificateChecks), ...typeDifferences(results)],
  };
}
