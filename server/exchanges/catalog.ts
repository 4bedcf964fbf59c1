import type { ExchangeInfo } from '../../contract/schemas.ts';

/**
 * The exchanges a trader can bind. Paper is built in: it trades against the simulated market with a
 * virtual balance and needs no network. The others go through ccxt (imported only when used).
 */
export const exchangeCatalog: readonly ExchangeInfo[] = [
  { id: 1, code: 'paper', name: 'Paper', logo: '', passphrase: false, spot: true, simulation: true },
  { id: 2, code: 'binance', name: 'Binance', logo: '', passphrase: false, spot: true, simulation: true },
  { id: 3, code: 'okx', name: 'OKX', logo: '', passphrase: true, spot: true, simulation: true },
  { id: 4, code: 'bybit', name: 'Bybit', logo: '', passphrase: false, spot: true, simulation: true },
  { id: 5, code: 'gate', name: 'Gate', logo: '', passphrase: false, spot: true, simulation: false },
  { id: 6, code: 'bitget', name: 'Bitget', logo: '', passphrase: true, spot: true, simulation: true },
  { id: 7, code: 'htx', name: 'HTX', logo: '', passphrase: false, spot: true, simulation: false },
];

/** Paper, the simulated exchange: its bots are simulation, never mixed with live ones in the rank. */
export const PAPER_EXCHANGE_ID = 1;

export function exchangeById(id: number): ExchangeInfo | undefined {
  return exchangeCatalog.find((e) => e.id === id);
}

export function exchangeByCode(code: string): ExchangeInfo | undefined {
  return exchangeCatalog.find((e) => e.code === code);
}
