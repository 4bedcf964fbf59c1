import { num } from '../../shared/format.ts';

/**
 * The slippage a trader may choose for a backtest or the AI search's backtests (configurable),
 * as fractions of the price against them on every fill: none, the server's default 0.05 %
 * (strategy/backtest.ts DEFAULT_SLIPPAGE), and two rougher markets. The API takes 0 to 0.05.
 */
export const slippages = ['0', '0.0005', '0.001', '0.003'] as const;
export type Slippage = (typeof slippages)[number];
export const defaultSlippage: Slippage = '0.0005';

/** A slippage fraction as the percent the screens show ('0.0005' -> 0.05). */
export const slippagePercent = (fraction: string, locale: string) => num(Number(fraction) * 100, locale, 4);
