import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * The address a request is counted and named by: Fastify's `request.ip` (the first hop TRUST_PROXY does
 * not trust), unless that is not an IP address, which happens when the hop it reads was written by the
 * client (X-Forwarded-For: not-an-ip-7, or an address with a port): then the address of the socket.
 * Every per-source limit, the login limits and the security notices use this one address.
 */
export function clientAddress(request: FastifyRequest): string {
  const ip = request.ip;
  if (typeof ip === 'string' && isIP(ip) !== 0) return ip;
  return request.socket?.remoteAddress ?? '';
}

/**
 * TRUST_PROXY as Fastify's `trustProxy`. A hop count becomes a function trusting that many hops next to
 * the server: Fastify itself trusts no hop for a bare number (it cannot tell a proxy from a client that
 * connected directly and wrote the hops itself), so a hop count is only right when the server can be
 * reached through the proxies alone; a list of the proxies' addresses is right in any case.
 */
export function trustedHops(value: false | number | string | undefined): false | string | ((address: string, hop: number) => boolean) {
  if (typeof value === 'number') return value > 0 ? (_address, hop) => hop < value : false;
  return value || false;
}
