/**
 * Whether an address can never be the one an exchange sees the server's requests come from: loopback
 * (127/8, ::1, localhost), private networks (10/8, 172.16/12, 192.168/16, fc00::/7), link-local
 * (169.254/16, fe80::/10), carrier-grade NAT (100.64/10) and the unspecified address. SERVER_IPS
 * defaults to 127.0.0.1: such a list is the operator's unfinished set-up, never advice to a trader.
 */
export function isPrivateAddress(address: string): boolean {
  const ip = address
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  if (ip === '' || ip === 'localhost' || ip.endsWith('.localhost')) return true;
  const v4 = ip.replace(/^::ffff:/, '').match(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 0 || a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
  }
  if (ip.includes(':')) return ip === '::' || ip === '::1' || /^f[cd][0-9a-f]{0,2}:/.test(ip) || /^fe[89ab][0-9a-f]?:/.test(ip);
  return false;
}

/** The addresses a trader may whitelist on an exchange key: the public ones of what the server sent (none: not configured). */
export function whitelistIps(ips: readonly string[]): string[] {
  return ips.filter((ip) => !isPrivateAddress(ip));
}
