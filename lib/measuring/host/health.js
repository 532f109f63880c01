// The harness's own memory over a run: a bounded timeline of RSS and V8 heap, sampled on a timer
// (unref'd, so it never keeps the process alive), labelled with the cell being measured.
import { round1 } from '../../common/stats.js';

const mb = (bytes) => round1(bytes / 2 ** 20);

function reading(label, startedAt, now) {
  const m = process.memoryUsage();
  return {
    t: Math.round((now - startedAt) / 100) / 10,
    cell: label,
    rssMB: mb(m.rss),
    heapUsedMB: mb(m.heapUsed),
    heapTotalMB: mb(m.heapTotal),
    arrayBuffersMB: mb(m.arrayBuffers),
  };
}

/** Past `maxPoints` the timeline is thinned: every other point dropped, the interval doubled. */
export function startHealthMonitor({ intervalMs = 5000, maxPoints = 400, now = () => Date.now() } = {}) {
  const startedAt = now();
  let label = null;
  let interval = intervalMs;
  const timeline = [reading(label, startedAt, startedAt)];
  let peak = timeline[0].rssMB;

  const take = () => {
    const r = reading(label, startedAt, now());
    peak = Math.max(peak, r.rssMB);
    timeline.push(r);
    if (timeline.length > maxPoints) {
      for (let i = timeline.length - 1; i > 0; i -= 2) timeline.splice(i, 1);
      interval *= 2;
      reschedule();
    }
  };
  let timer = null;
  const reschedule = () => {
    clearInterval(timer);
    timer = setInterval(take, interval);
    timer.unref();
  };
  reschedule();

  return {
    /** Label the readings that follow (e.g. "do · mysql2"). */
    setCell(name) { label = name; },
    sample: take,
    stop() {
      clearInterval(timer);
      take();
      const first = timeline[0];
      const last = timeline[timeline.length - 1];
      return {
        rssStartMB: first.rssMB,
        rssEndMB: last.rssMB,
        rssPeakMB: peak,
        heapUsedStartMB: first.heapUsedMB,
        heapUsedEndMB: last.heapUsedMB,
        intervalMs: interval,
        timeline,
      };
    },
  };
}
