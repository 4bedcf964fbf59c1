import { createHmac, timingSafeEqual } from 'node:crypto';
import { badKey, badKeyFormat, badSignature, mandatory, recvWindowTooLarge, timestampAhead, timestampOutside } from './errors.ts';

/**
 * Binance's request signing (SIGNED endpoints): the key travels in the X-MBX-APIKEY header, and
 * `signature` is the hex HMAC-SHA256, under the secret, of the query string followed directly by the
 * body, both exactly as sent, without the signature itself. `timestamp` must fall within `recvWindow`
 * (5000 ms unless sent, at most 60000) of the server's clock and not more than 1 s ahead of it.
 */

/** A key as Binance issues them: 64 letters and digits. */
const KEY_FORMAT = /^[A-Za-z0-9]{64}$/;

export const hmacHex = (secret: string, text: string): string => createHmac('sha256', secret).update(text).digest('hex');

/** `query` with its signature appended, as a client sends it. */
export const signed = (query: string, secret: string): string => `${query}&signature=${hmacHex(secret, query)}`;

/** The raw text minus its `signature=` part. */
const unsigned = (raw: string) =>
  raw
    .split('&')
    .filter((part) => part !== '' && !part.startsWith('signature='))
    .join('&');

export interface SignedRequest {
  rawQuery: string;
  rawBody: string;
  apiKey: string | undefined;
  /** Query and body parameters together. */
  params: URLSearchParams;
}

/** Refuses (throws a BinanceError) what Binance refuses; `secretOf` is the account's secret for a key, if the key exists. */
export function authenticate(request: SignedRequest, secretOf: (apiKey: string) => string | undefined, serverTime: number): void {
  const { apiKey, params } = request;
  if (apiKey === undefined || !KEY_FORMAT.test(apiKey)) throw badKeyFormat();
  const secret = secretOf(apiKey);
  if (secret === undefined) throw badKey();
  const timestampText = params.get('timestamp');
  if (!timestampText || !/^\d+$/.test(timestampText)) throw mandatory('timestamp');
  const signature = params.get('signature');
  if (!signature) throw mandatory('signature');
  const recvWindowText = params.get('recvWindow');
  const recvWindow = recvWindowText === null ? 5000 : Number(recvWindowText);
  if (!Number.isFinite(recvWindow) || recvWindow > 60_000) throw recvWindowTooLarge();

  const expected = Buffer.from(hmacHex(secret, unsigned(request.rawQuery) + unsigned(request.rawBody)), 'utf8');
  const given = Buffer.from(signature.toLowerCase(), 'utf8');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw badSignature();

  const timestamp = Number(timestampText);
  if (timestamp >= serverTime + 1000) throw timestampAhead();
  if (serverTime - timestamp > recvWindow) throw timestampOutside();
}
