import type { FastifyRequest } from 'fastify';
import { fail } from '../errors.ts';
import type { Site } from '../services/wallet.ts';

/**
 * The configured site a request is for. The site a wallet signs in to comes from
 * configuration (PUBLIC_ORIGIN), never from the request: the request's host (Fastify's, which honours
 * TRUST_PROXY) only picks one of the configured origins, and an Origin header, when the browser sends
 * one, must be that same origin. A request for any other host is refused, so a phishing site relaying
 * a victim's signature cannot get a message naming itself.
 */
export function siteOf(request: FastifyRequest, origins: readonly string[]): Site {
  const host = (request.host ?? '').toLowerCase();
  const match = origins.find((o) => sameHost(new URL(o), host));
  if (!match) throw fail('WalletDomainMismatch');
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== match) throw fail('WalletDomainMismatch');
  return { domain: new URL(match).host, uri: match };
}

/** Whether a Host header names an origin's host (its scheme's default port may be written or not). */
function sameHost(origin: URL, host: string): boolean {
  if (origin.host === host) return true;
  const defaultPort = origin.protocol === 'https:' ? '443' : '80';
  return origin.port === '' && host === `${origin.hostname}:${defaultPort}`;
}
