/** The p-th percentile (0..1) of the numbers, nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN;
}

export const median = (values: number[]) => percentile(values, 0.5);
export const round = (n: number, digits = 1) => +n.toFixed(digits);
