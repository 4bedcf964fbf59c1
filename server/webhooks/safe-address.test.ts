import { describe, expect, it } from 'vitest';
import { isPublicAddress } from './safe-address.ts';

describe('isPublicAddress', () => {
  it.each([
    ['loopback', ['127.0.0.1', '127.255.255.254', '::1', '0:0:0:0:0:0:0:1']],
    ['unspecified', ['0.0.0.0', '0.255.255.255', '::', '0:0:0:0:0:0:0:0']],
    ['private IPv4', ['10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.0.1', '192.168.255.255']],
    ['unique local IPv6', ['fc00::1', 'fd12:3456:789a::1', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']],
    ['link-local, with the cloud metadata service', ['169.254.0.1', '169.254.169.254', 'fe80::1', 'febf::1', 'fe80::1%eth0']],
    ['carrier-grade NAT', ['100.64.0.1', '100.127.255.255']],
    ['multicast and reserved', ['224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255', 'ff02::1', 'ff0e::1', 'fec0::1', '100::1']],
    ['benchmarking', ['198.18.0.1', '198.19.255.255']],
    ['documentation', ['192.0.2.1', '198.51.100.7', '203.0.113.9', '2001:db8::1', '3fff::1']],
    ['IETF protocol assignments and Teredo', ['192.0.0.8', '2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2']],
    ['IPv4-mapped', ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', '0:0:0:0:0:ffff:192.168.1.1']],
    ['IPv4-compatible and translated', ['::127.0.0.1', '::7f00:1', '::a00:1', '::ffff:0:127.0.0.1', '::ffff:0:a9fe:a9fe']],
    ['NAT64 around a private IPv4', ['64:ff9b::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b::c0a8:101', '64:ff9b:1::808:808']],
    ['6to4 around a private IPv4', ['2002:7f00:1::', '2002:a00:1::1', '2002:a9fe:a9fe::1', '2002:c0a8:101::1']],
    ['not an address', ['', 'localhost', '2130706433', '0x7f.1', '127.1', '[::1]', '1.2.3.4.5']],
  ])('refuses %s', (_range, addresses) => {
    for (const ip of addresses) expect(isPublicAddress(ip), ip).toBe(false);
  });

  it('allows public addresses, also right beside the refused ranges', () => {
    for (const ip of [
      '8.8.8.8',
      '1.1.1.1',
      '9.255.255.255',
      '11.0.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '126.255.255.255',
      '128.0.0.0',
      '169.253.255.255',
      '169.255.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '192.167.255.255',
      '192.169.0.0',
      '198.17.255.255',
      '198.20.0.0',
      '223.255.255.255',
      '2606:4700:4700::1111',
      '2a00:1450:4001:80b::200e',
      '::ffff:8.8.8.8',
      '::ffff:808:808',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(true);
    }
  });

  it('judges the forms a URL writes for 127.0.0.1 by the address the URL parser makes of them', () => {
    const hosts = ['http://2130706433/', 'http://0x7f.1/', 'http://017700000001/', 'http://0177.0.0.1/', 'http://127.1/', 'http://%31%32%37.0.0.1/', 'http://１２７.０.０.１/'].map(
      (u) => new URL(u).hostname,
    );
    expect(new Set(hosts)).toEqual(new Set(['127.0.0.1']));
    // IPv6 literals come out in their short, hexadecimal form: the mapped forms too.
    expect(new URL('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
    expect(new URL('http://[0:0:0:0:0:ffff:7f00:0001]/').hostname).toBe('[::ffff:7f00:1]');
    expect(isPublicAddress('127.0.0.1')).toBe(false);
    expect(isPublicAddress('::ffff:7f00:1')).toBe(false);
  });
});
