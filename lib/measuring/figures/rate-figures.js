// Pure: --rate's figures that both sides share: the open schedules' names, and a rate row's figures
// from its windows' counts (the rate achieved, and whether it was sustained).
import { sum } from '../../common/stats.js';

export const SCHEDULES = ['poisson', 'uniform'];

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
    // A moment's stall (a collection, the host) is tolerated, a backlog that grows is not
    // (docs/history/2026-11-26-rate.md#2026-11-26---rate-an-open-schedule-issue-37).
    sustained: scheduled > 0 && skipped + behind <= MAX_BEHIND_SHARE * scheduled,
  };
}

export const MAX_BEHIND_SHARE = 0.01;
