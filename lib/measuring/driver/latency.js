// The timed operations' latencies in an HdrHistogram (figures/histograms.js): every one counted, in
// memory that does not grow with the run.
import { round1 } from '../../common/stats.js';
import { NS_PER_US, encodeHistogram, histogramSummary, newHistogram } from '../figures/histograms.js';

export class LatencyRecorder {
  constructor() {
    this.histogram = newHistogram();
    this.length = 0; // latencies recorded
    this.operations = 0; // operations they were taken from
    this.max = 0;
  }

  /** `n` operations ran, some of them timed (push). */
  addOperations(n) {
    this.operations += n;
  }

  push(us) {
    this.length++;
    if (us > this.max) this.max = us;
    this.histogram.recordValue(Math.max(1, Math.round(us * NS_PER_US)));
  }

  percentile(p) {
    return this.length ? this.histogram.getValueAtPercentile(p) / NS_PER_US : null;
  }

  /** p50, p90, p99, p99.9 and the exact max, in µs; null when nothing was timed. */
  summary() {
    const s = histogramSummary(this.histogram);
    if (!s) return null;
    // A percentile is its bucket's highest value, which can pass the exact max by under 0.1 %.
    const max = round1(this.max);
    return { ...s, p50: Math.min(s.p50, max), p90: Math.min(s.p90, max), p99: Math.min(s.p99, max), p999: Math.min(s.p999, max), max };
  }

  encode() {
    return encodeHistogram(this.histogram);
  }
}
