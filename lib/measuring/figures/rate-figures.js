// Pure: --rate's figures that both sides share: the open schedules' names, and a rate row's figures
// from its windows' counts (the rate achieved, and whether it was sustained).
import { sum } from '../../common/stats.js';

/** The open schedules (driver/open-loop.js's arrivalGaps). */
export const SCHEDULES = ['poisson', 'uniform'];

/** Pure: the figures of a rate row from its windows' counts: the rate achieved, and whether it was sustained. */
export function summarizeRate(windows, askedPerSec) {
  const total = (k) => sum(windows.map((w) => w[k] ?? 0));
  const seconds = sum(windows.map((w) => w.measureSeconds));
  const scheduled = total('scheduled');
  const completed = total('completed');
  const skipped = total('skipped');
  const behind = total('behind');
  return {
    askedPerSec,
    achievedPerSec: seconds > 0 ? completed / seconds : 0,
    scheduled,
    completed,
    skipped,
    late: total('late'),
    behind,
    // Sustained: at most 1 % of the arrivals skipped or still waiting when their window's schedule
    // ended: a moment's stall (a collection, the host), not a backlog that grows
    // (docs/history/2026-11-26-rate.md#2026-11-26---rate-an-open-schedule-issue-37).
    sustained: scheduled > 0 && skipped + behind <= MAX_BEHIND_SHARE * scheduled,
  };
}

/** The share of a row's arrivals that may be skipped or behind, for its rate to count as sustained. */
export const MAX_BEHIND_SHARE = 0.01;
