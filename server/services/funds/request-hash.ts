import { createHash } from 'node:crypto';

/**
 * The fingerprint of a request made under a client's request id (idempotency key): sha256 of the
 * call's name and its normalised fields, sorted by name. It is stored with the id, so the id sent
 * again answers the first request only when it names the same thing (another amount or address with
 * the same id is refused with RequestIdReused). Credentials (payment password, 2FA code) are never
 * part of it: they are checked on every request, the replay too.
 */
export function requestHash(call: string, fields: Record<string, string>): string {
  const sorted = Object.keys(fields)
    .sort()
    .map((k) => [k, fields[k]]);
  return createHash('sha256')
    .update(JSON.stringify([call, sorted]))
    .digest('hex');
}
