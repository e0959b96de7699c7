// Order statistics over a sample, nearest-rank on the sorted values (no interpolation).

export function sorted(values) {
  return [...values].sort((a, b) => a - b);
}

/** The q-quantile (0 ≤ q ≤ 1) by nearest rank. */
export function quantile(values, q) {
  if (values.length === 0) return Number.NaN;
  const s = sorted(values);
  const rank = Math.ceil(q * s.length) - 1;
  return s[Math.min(s.length - 1, Math.max(0, rank))];
}

export const median = (values) => quantile(values, 0.5);
export const p90 = (values) => quantile(values, 0.9);
export const p99 = (values) => quantile(values, 0.99);

export function summary(values) {
  return {
    n: values.length,
    median: median(values),
    p90: p90(values),
    p99: p99(values),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}
