import type { ExchangeInfo } from '../../contract/market.ts';

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
  // Simulated accounts on the live prices of the exchanges that offer simulation: virtual
  // balances, orders filled at the exchange's price with its own rules and fee; opened from the 模拟 tab.
  { id: 102, code: 'binancesim', name: 'Binance 模拟', logo: '', passphrase: false, spot: true, simulation: true, simulatedOf: 'binance' },
  { id: 103, code: 'okxsim', name: 'OKX 模拟', logo: '', passphrase: false, spot: true, simulation: true, simulatedOf: 'okx' },
  { id: 104, code: 'bybitsim', name: 'Bybit 模拟', logo: '', passphrase: false, spot: true, simulation: true, simulatedOf: 'bybit' },
  { id: 106, code: 'bitgetsim', name: 'Bitget 模拟', logo: '', passphrase: false, spot: true, simulation: true, simulatedOf: 'bitget' },
];

/** Every simulated account (Paper and those on live prices): their bots are simulation, kept apart from live ones. */
export const SIMULATED_EXCHANGE_IDS: readonly number[] = exchangeCatalog.filter((e) => e.code === 'paper' || e.simulatedOf).map((e) => e.id);
// contract/rules.ts isSimulatedCode tells them by their code: every simulated account's code ends in "sim".

export function exchangeById(id: number): ExchangeInfo | undefined {
  return exchangeCatalog.find((e) => e.id === id);
}

export function exchangeByCode(code: string): ExchangeInfo | undefined {
  return exchangeCatalog.find((e) => e.code === code);
}
