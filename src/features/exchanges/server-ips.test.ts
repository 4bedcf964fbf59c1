import { describe, expect, it } from 'vitest';
import { isPrivateAddress, whitelistIps } from './server-ips.ts';

/** The whitelist card never advises an address an exchange cannot see (SERVER_IPS defaults to 127.0.0.1). */
describe('server IPs to whitelist', () => {
  it('tells loopback, private, link-local and unspecified addresses from public ones', () => {
    for (const ip of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      'localhost',
      'LOCALHOST',
      '10.0.0.5',
      '192.168.1.10',
      '172.16.0.1',
      '172.31.255.255',
      '169.254.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '::',
      'fd12:3456::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '[::1]',
      ' 127.0.0.1 ',
    ]) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ['203.0.113.7', '8.8.8.8', '172.15.0.1', '172.32.0.1', '192.169.0.1', '11.0.0.1', '100.128.0.1', '2001:db8::1', '2606:4700::1111']) {
      expect(isPrivateAddress(ip), ip).toBe(false);
    }
  });

  it('keeps only the public addresses, none when the operator left the default', () => {
    expect(whitelistIps(['127.0.0.1'])).toEqual([]);
    expect(whitelistIps(['127.0.0.1', '::1', '10.0.0.2'])).toEqual([]);
    expect(whitelistIps([])).toEqual([]);
    expect(whitelistIps(['203.0.113.7', '10.0.0.2', '198.51.100.4'])).toEqual(['203.0.113.7', '198.51.100.4']);
  });
});
