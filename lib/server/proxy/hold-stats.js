// The latency proxy's record of how long it held each chunk: exact count, min and max, and a
// compact histogram for the percentiles (1 µs buckets below 1 ms, 0.2 % wide ones above).
const EXACT_BELOW_US = 1024;
const SUB_BUCKETS = 512; // per doubling above EXACT_BELOW_US
const LARGEST_US = 2 ** 31 - 1; // about 36 minutes; anything longer lands in the last bucket
const BUCKETS = EXACT_BELOW_US + 21 * SUB_BUCKETS;

export function bucketOf(us) {
  const v = Math.min(Math.max(0, Math.floor(us)), LARGEST_US);
  if (v < EXACT_BELOW_US) return v;
  const shift = 31 - Math.clz32(v) - 9; // v >>> shift lies in [512, 1024)
  return EXACT_BELOW_US + (shift - 1) * SUB_BUCKETS + ((v >>> shift) - SUB_BUCKETS);
}

/** [fromUs, toUs) */
export function bucketRange(index) {
  if (index < EXACT_BELOW_US) return [index, index + 1];
  const j = index - EXACT_BELOW_US;
  const width = 2 ** (Math.floor(j / SUB_BUCKETS) + 1);
  const from = ((j % SUB_BUCKETS) + SUB_BUCKETS) * width;
  return [from, from + width];
}

const ms3 = (us) => Math.round(us) / 1000;

/** `requestedMs`: the hold each chunk was due; a shorter one is counted as `early` (the proxy's self-check). */
export function createHoldRecorder(requestedMs = 0) {
  const counts = new Float64Array(BUCKETS);
  let count = 0;
  let early = 0;
  let sumUs = 0;
  let minUs = Infinity;
  let maxUs = -Infinity;

  /** The p-quantile (nearest rank) as its bucket's middle, kept within the exact min and max. */
  function quantileUs(p) {
    const rank = Math.max(1, Math.ceil(p * count));
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += counts[i];
      if (seen >= rank) {
        const [from, to] = bucketRange(i);
        return Math.min(maxUs, Math.max(minUs, (from + to) / 2));
      }
    }
    return maxUs;
  }

  return {
    add(holdMs) {
      if (holdMs < requestedMs) early++;
      const us = holdMs * 1000;
      counts[bucketOf(us)]++;
      count++;
      sumUs += us;
      if (us < minUs) minUs = us;
      if (us > maxUs) maxUs = us;
    },
    /** In ms: minMs rounded down to the ns, the others to the µs; null when nothing was held. */
    summary() {
      if (count === 0) return { chunks: 0, early: 0, minMs: null, p50Ms: null, p99Ms: null, maxMs: null, meanMs: null };
      return {
        chunks: count,
        early,
        minMs: Math.floor(minUs * 1000) / 1e6,
        p50Ms: ms3(quantileUs(0.5)),
        p99Ms: ms3(quantileUs(0.99)),
        maxMs: ms3(maxUs),
        meanMs: ms3(sumUs / count),
      };
    },
  };
}
