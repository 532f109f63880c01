// Records single-operation latencies (microseconds) into a growable typed array.
export class LatencyRecorder {
  constructor(initial = 1 << 14) {
    this.values = new Float64Array(initial);
    this.length = 0;
  }

  push(us) {
    if (this.length === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = us;
  }

  toArray() {
    return this.values.subarray(0, this.length);
  }

  clear() {
    this.length = 0;
  }
}
