import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, MAX_URL_LENGTH } from './check-url.ts';

const reason = (raw: string, policy = {}) => {
  const checked = checkWebhookUrl(raw, policy);
  return checked.ok ? 'ok' : checked.reason;
};

describe('checkWebhookUrl', () => {
  it('accepts a public https URL and keeps its path and query', () => {
    const checked = checkWebhookUrl('https://hooks.example.com/quantbot?acct=7');
    expect(checked).toMatchObject({ ok: true, trusted: false });
    expect(checked.ok && checked.url.href).toBe('https://hooks.example.com/quantbot?acct=7');
  });

  it('wants https, and plain http only when the operator allows it', () => {
    expect(reason('http://hooks.example.com/')).toBe('scheme');
    expect(reason('http://hooks.example.com/', { allowHttp: true })).toBe('ok');
    for (const raw of ['ftp://hooks.example.com/', 'file:///etc/passwd', 'gopher://hooks.example.com/', 'javascript:alert(1)', 'ws://hooks.example.com/']) {
      expect(reason(raw, { allowHttp: true }), raw).toBe('scheme');
    }
  });

  it('refuses credentials, unreadable and overlong URLs', () => {
    expect(reason('https://user:pass@hooks.example.com/')).toBe('credentials');
    expect(reason('https://user@hooks.example.com/')).toBe('credentials');
    expect(reason('not a url')).toBe('syntax');
    expect(reason('https://[::1/')).toBe('syntax');
    const base = 'https://hooks.example.com/';
    expect(reason(base + 'a'.repeat(MAX_URL_LENGTH - base.length))).toBe('ok');
    expect(reason(base + 'a'.repeat(MAX_URL_LENGTH - base.length + 1))).toBe('length');
  });

  it('allows the web ports only, unless the operator names more', () => {
    for (const port of [443, 8443, 8080]) expect(reason(`https://hooks.example.com:${port}/`)).toBe('ok');
    expect(reason('http://hooks.example.com:80/', { allowHttp: true })).toBe('ok');
    for (const port of [22, 25, 5432, 6379, 9200, 3000]) expect(reason(`https://hooks.example.com:${port}/`)).toBe('port');
    expect(reason('https://hooks.example.com:3000/', { ports: [3000] })).toBe('ok');
  });

  it('refuses local names before any lookup', () => {
    for (const host of ['localhost', 'LOCALHOST.', 'api.localhost', 'printer.local', 'metadata.google.internal', 'nas.home.arpa', 'intranet']) {
      expect(reason(`https://${host}/`), host).toBe('host');
    }
  });

  it('refuses private address literals in every spelling the URL parser accepts', () => {
    for (const raw of [
      'https://127.0.0.1/',
      'https://2130706433/',
      'https://0x7f.1/',
      'https://017700000001/',
      'https://0177.0.0.1/',
      'https://127.1/',
      'https://0/',
      'https://10.0.0.1/',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/',
      'https://[::]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:a9fe:a9fe]/',
      'https://[fe80::1]/',
      'https://[fd00::1]/',
      'https://[64:ff9b::a00:1]/',
      'https://[2002:a00:1::]/',
    ]) {
      expect(reason(raw), raw).toBe('private');
    }
    expect(reason('https://8.8.8.8/')).toBe('ok');
    expect(reason('https://[2606:4700:4700::1111]/')).toBe('ok');
  });

  it('trusts exactly the host:port pairs the operator lists, the default port written out', () => {
    const policy = { allowHttp: true, allowHosts: ['127.0.0.1:8787', '[::1]:80', 'hooks.internal:443'] };
    expect(checkWebhookUrl('http://127.0.0.1:8787/x', policy)).toMatchObject({ ok: true, trusted: true });
    expect(checkWebhookUrl('http://[::1]/', policy)).toMatchObject({ ok: true, trusted: true });
    expect(checkWebhookUrl('https://hooks.internal/', policy)).toMatchObject({ ok: true, trusted: true });
    expect(reason('http://127.0.0.1:8788/', policy)).toBe('port');
    expect(reason('http://127.0.0.1:8080/', policy)).toBe('private');
    expect(reason('http://localhost:8787/', policy)).toBe('port');
    expect(reason('http://hooks.internal/', policy)).toBe('host');
    // Trust lifts the address checks, not the others.
    expect(reason('http://u:p@127.0.0.1:8787/', policy)).toBe('credentials');
    expect(reason('http://127.0.0.1:8787/', { allowHosts: policy.allowHosts })).toBe('scheme');
  });
});
