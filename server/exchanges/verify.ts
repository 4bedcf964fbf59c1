import type { ExchangeInfo } from '../../contract/market.ts';

export interface Credentials {
  apiKey: string;
  secretKey: string;
  passphrase?: string | undefined;
}

/** Something that can answer a private call with these keys: ccxt's exchange classes fit. */
export interface PrivateClient {
  fetchBalance(): Promise<unknown>;
}
export type ClientFactory = (exchange: ExchangeInfo, creds: Credentials) => Promise<PrivateClient>;

/**
 * Live exchanges through ccxt, imported on first use (it is large and slow to load), as the bots' venues
 * make them (live.ts ccxtInstance: the same options, the operator's EXCHANGE_URLS).
 */
export const ccxtClientAt =
  (urls: Readonly<Record<string, string>> = {}): ClientFactory =>
  async (exchange, creds) =>
    (await import('./live.ts')).ccxtInstance(exchange.code, creds, urls[exchange.code]);

export const ccxtClient: ClientFactory = ccxtClientAt();

const PAPER_KEY = /^[A-Za-z0-9_-]{8,128}$/;

/**
 * Whether the keys work: a simulated account checks their format; a live exchange must answer a private call (the
 * balance) with them. Any failure, network included, means "not verified": nothing is saved.
 */
export async function verifyKeys(exchange: ExchangeInfo, creds: Credentials, client: ClientFactory = ccxtClient): Promise<boolean> {
  // Simulated accounts (Paper, and those on a live exchange's prices) hold no real key: its format is all.
  if (exchange.code === 'paper' || exchange.simulatedOf) return PAPER_KEY.test(creds.apiKey) && PAPER_KEY.test(creds.secretKey);
  try {
    await (await client(exchange, creds)).fetchBalance();
    return true;
  } catch {
    return false;
  }
}
