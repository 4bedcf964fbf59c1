const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * A USDT figure on a chart's price axis: 2 decimals, grouped, and a value that rounds to zero shows as
 * 0.00, never "-0.00" (the axis of a PnL chart that starts flat at zero drew one).
 */
export function axisPrice(value: number): string {
  return twoDecimals.format(Math.abs(value) < 0.005 ? 0 : value);
}
