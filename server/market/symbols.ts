/** The simulated market's pairs: a realistic starting price, yearly volatility and price tick each. */
export interface SimSymbol {
  symbol: string;
  /** Price on the genesis day. */
  start: number;
  /** Annualised volatility (0.6 = 60%). */
  vol: number;
  tick: string;
  /** Amount step (base). */
  step: string;
}

export const simSymbols: readonly SimSymbol[] = [
  { symbol: 'BTC/USDT', start: 60000, vol: 0.55, tick: '0.01', step: '0.00001' },
  { symbol: 'ETH/USDT', start: 3000, vol: 0.7, tick: '0.01', step: '0.0001' },
  { symbol: 'BNB/USDT', start: 600, vol: 0.6, tick: '0.01', step: '0.001' },
  { symbol: 'SOL/USDT', start: 150, vol: 0.9, tick: '0.01', step: '0.001' },
  { symbol: 'XRP/USDT', start: 0.6, vol: 0.85, tick: '0.0001', step: '0.1' },
  { symbol: 'DOGE/USDT', start: 0.15, vol: 1.0, tick: '0.00001', step: '1' },
  { symbol: 'ADA/USDT', start: 0.45, vol: 0.9, tick: '0.0001', step: '0.1' },
  { symbol: 'TRX/USDT', start: 0.12, vol: 0.6, tick: '0.00001', step: '1' },
  { symbol: 'LTC/USDT', start: 80, vol: 0.75, tick: '0.01', step: '0.001' },
  { symbol: 'DOT/USDT', start: 6, vol: 0.9, tick: '0.001', step: '0.01' },
  { symbol: 'LINK/USDT', start: 15, vol: 0.9, tick: '0.001', step: '0.01' },
  { symbol: 'AVAX/USDT', start: 30, vol: 0.95, tick: '0.01', step: '0.01' },
];

export const timeframes = { '1m': 60_000, '5m': 300_000, '15m': 900_000, '1h': 3_600_000, '4h': 14_400_000, '1d': 86_400_000 } as const;
export type Timeframe = keyof typeof timeframes;
