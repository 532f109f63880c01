// Records single-operation latencies (microseconds) of the operations timed, and how many operations
// they were taken from. Up to `capacity` values are kept exactly; past that, a uniform reservoir
// sample (Vitter's algorithm R) of that size, so percentiles stay unbiased and memory stays bounded
// on long runs. The count of latencies and their maximum are always exact.
export class LatencyRecorder {
  constructor(capacity = 1 << 20) {
    this.capacity = capacity;
    this.values = new Float64Array(Math.min(capacity, 1 << 14));
    this.stored = 0;
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
    if (this.stored < this.capacity) {
      if (this.stored === this.values.length) {
        const bigger = new Float64Array(Math.min(this.capacity, this.values.length * 2));
        bigger.set(this.values);
        this.values = bigger;
      }
      this.values[this.stored++] = us;
      return;
    }
    const j = Math.floor(Math.random() * this.length);
    if (j < this.capacity) this.values[j] = us;
  }

  /** The kept values (all of them until `capacity` is reached, then the reservoir). */
  toArray() {
    return this.values.subarray(0, this.stored);
  }
}

/**
 * Pure: one latency sample from several recorders' kept values, each part weighted by the
 * operations it stands for (`count`): every part is thinned, by an even stride, to the sampling
 * fraction of the most thinned one. Null when no part kept a value.
 * @param {Array<{ values: ArrayLike<number>, count: number }>} parts
 */
export function mergeLatencySamples(parts) {
  const kept = parts.filter((p) => p.values?.length > 0 && p.count > 0);
  if (kept.length === 0) return null;
  const fraction = Math.min(...kept.map((p) => Math.min(1, p.values.length / p.count)));
  const out = [];
  for (const { values, count } of kept) {
    const take = Math.min(values.length, Math.max(1, Math.round(fraction * count)));
    for (let i = 0; i < take; i++) out.push(values[Math.floor((i * values.length) / take)]);
  }
  return Float64Array.from(out);
}
