import { isIP } from 'node:net';
import { isPublicAddress } from './safe-address.ts';

/** What the operator trusts beyond the defaults (tests use it for a receiver on 127.0.0.1). */
export interface WebhookPolicy {
  /** Plain http as well as https: for tests and closed networks only, as http shows the payload to every hop. */
  allowHttp?: boolean;
  /** `host:port` pairs as a URL writes them (`127.0.0.1:8080`, `[::1]:8443`, `hooks.internal:443`) that skip the port, name and address checks. */
  allowHosts?: readonly string[];
  /** Ports a URL may name; the web's usual four by default, so that a trader cannot aim at a database or a mail server. */
  ports?: readonly number[];
}

export type RefusedReason = 'length' | 'syntax' | 'scheme' | 'credentials' | 'port' | 'host' | 'private' | 'redirects';

export type UrlCheck = { ok: true; url: URL; trusted: boolean } | { ok: false; reason: RefusedReason };

export const MAX_URL_LENGTH = 2000;
export const DEFAULT_PORTS: readonly number[] = [80, 443, 8080, 8443];

/** Names that never lead to a public server: RFC 6761's loopback names and the private suffixes. */
const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa'];

/** The port a URL connects to, its scheme's default when it names none. */
export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/**
 * Checks a webhook URL without the network: everything a URL alone can tell. A name that passes still
 * has to resolve to public addresses only, which the sender checks each time it connects. `trusted`
 * says the operator allowed this host:port, so the address checks are skipped for it.
 */
export function checkWebhookUrl(raw: string, policy: WebhookPolicy = {}): UrlCheck {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: 'length' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'syntax' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) return { ok: false, reason: 'scheme' };
  // Credentials in the URL would travel in logs and redirects; the signature is how a receiver knows us.
  if (url.username || url.password) return { ok: false, reason: 'credentials' };
  const trusted = (policy.allowHosts ?? []).some((h) => h.toLowerCase() === `${url.hostname}:${portOf(url)}`);
  if (trusted) return { ok: true, url, trusted };
  if (!(policy.ports ?? DEFAULT_PORTS).includes(portOf(url))) return { ok: false, reason: 'port' };
  // The URL parser has already turned 2130706433, 0x7f.1 and 0177.0.0.1 into 127.0.0.1, and IPv6 into its short form.
  const bare = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare)) return isPublicAddress(bare) ? { ok: true, url, trusted } : { ok: false, reason: 'private' };
  const name = bare.replace(/\.$/, '');
  // A single label is completed by the server's own search domains: an intranet name, not a trader's endpoint.
  if (!name.includes('.') || name === 'localhost' || LOCAL_SUFFIXES.some((s) => name.endsWith(s))) return { ok: false, reason: 'host' };
  return { ok: true, url, trusted };
}
