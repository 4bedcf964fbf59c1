import { useEffect, useState } from 'react';
import type { ApiBinding } from '../../contract/exchanges.ts';
import { isSimulatedCode } from '../../contract/rules.ts';

export type TradingMode = 'live' | 'simulation';
const KEY = 'trading-mode';

/** The choice kept on this device, if any. */
export function storedTradingMode(): TradingMode | undefined {
  const v = localStorage.getItem(KEY);
  return v === 'live' || v === 'simulation' ? v : undefined;
}

/** The mode bindings suggest before the trader chooses: a live exchange bound: live; Paper only: simulation. */
export function modeOfBindings(bindings: ApiBinding[] | null | undefined): TradingMode {
  return bindings?.some((b) => !isSimulatedCode(b.exchange)) ? 'live' : 'simulation';
}

/**
 * Live or simulated (Paper) bots: the lists, counts and bills show one at a time. The
 * choice is kept on the device; until the trader makes one it follows their bindings (a live exchange
 * bound: live; Paper only: simulation), and before those are known nothing is filtered.
 */
export function useTradingMode(bindings?: ApiBinding[] | null): [TradingMode | undefined, (m: TradingMode) => void] {
  // Bindings already known (home's loader asked for them) decide at the first render, not one later.
  const [mode, setMode] = useState<TradingMode | undefined>(() => storedTradingMode() ?? (bindings ? modeOfBindings(bindings) : undefined));
  useEffect(() => {
    if (storedTradingMode() || !bindings) return;
    const fallback = mode ?? modeOfBindings(bindings);
    localStorage.setItem(KEY, fallback);
    setMode(fallback);
  }, [bindings, mode]);
  const choose = (m: TradingMode) => {
    localStorage.setItem(KEY, m);
    setMode(m);
  };
  return [mode, choose];
}
