import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import type { ExchangeInfo } from '../../contract/market.ts';
import { exchangesQuery } from './query.ts';

type Known = Pick<ExchangeInfo, 'code' | 'name' | 'simulatedOf'>;

/**
 * An exchange's name in the UI language, from its code: Paper is 模拟盘 / Paper, a simulated account is
 * its live exchange's name and 模拟 / (simulated), a live exchange keeps its brand. The server's
 * catalog names ("Binance 模拟") are Chinese whatever the language, and the exchange list is cached
 * across language switches, so the words are the client's.
 */
export function exchangeLabel(i18n: I18n, code: string, exchanges: readonly Known[] | undefined): string {
  if (code === 'paper') return i18n._(msg`模拟盘`);
  const exchange = exchanges?.find((e) => e.code === code);
  const live = exchange?.simulatedOf ?? code.match(/^([a-z0-9]+)sim$/)?.[1];
  if (live) {
    const base = exchanges?.find((e) => e.code === live)?.name ?? live;
    return i18n._(msg`${base} 模拟`);
  }
  return exchange?.name ?? code;
}

/** exchangeLabel bound to the UI language and the 5-minute exchange cache; a live exchange's code until it loads. */
export function useExchangeNames(): (code: string) => string {
  const { i18n } = useLingui();
  const { data } = useQuery(exchangesQuery);
  return (code) => exchangeLabel(i18n, code, data?.exchanges);
}
