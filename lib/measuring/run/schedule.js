// Pure: a bench's round schedule: a fresh random order of its cells each round, which of a cell's
// processes gives its window, and whether to run another round.
import { pairedDelta } from '../figures/paired-delta.js';

// With --precision, rounds are added in batches (and precision judged only between batches), so
// that stopping follows the interval's width over many rounds, not one lucky round.
export const PRECISION_BATCH = 12;

/** Has every cell's paired Δ against the reference cell reached ±`precisionPct`? */
export function preciseEnough(cells, baseline, precisionPct, level = 0.95) {
  const ref = cells.find((cell) => cell.driver.name === baseline) ?? cells[0];
  if (!ref) return true;
  return cells.filter((cell) => cell !== ref).every((cell) => {
    const d = pairedDelta(cell.windows, ref.windows, level);
    return Number.isFinite(d?.halfWidthPct) && d.halfWidthPct <= precisionPct;
  });
}

// A bench whose time budget runs out still gets this many rounds (and its interval).
export const MIN_ROUNDS = 24;

/** `budget`: seconds per cell, for the `cells` still measured. */
export function moreRounds(r, { rounds, precision, maxRounds, precisionLevel, baseline }, { budget = null, cells = [], elapsedS = 0 } = {}) {
  if (budget && r >= MIN_ROUNDS && elapsedS > budget * cells.length) return false;
  if (r < rounds) return true;
  if (!precision || r >= maxRounds) return false;
  return (r - rounds) % PRECISION_BATCH !== 0 || !preciseEnough(cells, baseline, precision, precisionLevel);
}

export function shuffle(list, random = Math.random) {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Each process once in every block of `copies` rounds, so each gets the same share of every stretch of the host's drift. */
export function processSchedule(copies, random = Math.random) {
  const order = [];
  return (r) => {
    while (order.length <= r) order.push(...shuffle([...Array(copies).keys()], random));
    return order[r];
  };
}
