/**
 * Chart indicators over closes, oldest first (issue 6 §5): one value per close, null until there are
 * enough closes. Figures for the eye (doubles, 8 significant digits), never for orders.
 */
export const indicatorNames = ['ma20', 'ema20', 'rsi14'] as const;
export type IndicatorName = (typeof indicatorNames)[number];

const round = (x: number) => Number(x.toPrecision(8));

export function sma(closes: readonly number[], n: number): (number | null)[] {
  let sum = 0;
  return closes.map((c, i) => {
    sum += c;
    if (i >= n) sum -= closes[i - n]!;
    return i >= n - 1 ? round(sum / n) : null;
  });
}

export function ema(closes: readonly number[], n: number): (number | null)[] {
  const k = 2 / (n + 1);
  let value = 0;
  return closes.map((c, i) => {
    if (i < n - 1) {
      value += c;
      return null;
    }
    value = i === n - 1 ? (value + c) / n : c * k + value * (1 - k);
    return round(value);
  });
}

/** Wilder's RSI. */
export function rsi(closes: readonly number[], n: number): (number | null)[] {
  let gain = 0;
  let loss = 0;
  return closes.map((c, i) => {
    if (i === 0) return null;
    const d = c - closes[i - 1]!;
    const up = Math.max(d, 0);
    const down = Math.max(-d, 0);
    if (i <= n) {
      gain += up / n;
      loss += down / n;
      if (i < n) return null;
    } else {
      gain = (gain * (n - 1) + up) / n;
      loss = (loss * (n - 1) + down) / n;
    }
    return round(loss === 0 ? 100 : 100 - 100 / (1 + gain / loss));
  });
}

export function indicator(name: IndicatorName, closes: readonly number[]): (number | null)[] {
  if (name === 'ma20') return sma(closes, 20);
  if (name === 'ema20') return ema(closes, 20);
  return rsi(closes, 14);
}
