import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretBox, loadSecretKey } from './secret-box.ts';

describe('the secret box', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips, with a fresh IV each time', () => {
    const a = box.seal('s3cret', 'user:1');
    expect(box.seal('s3cret', 'user:1')).not.toBe(a);
    expect(a).toMatch(/^v1:/);
    expect(a).not.toContain('s3cret');
    expect(box.open(a, 'user:1')).toBe('s3cret');
  });

  it('refuses another owner, a tampered body, a truncated tag and another key', () => {
    const sealed = box.seal('s3cret', 'user:1');
    expect(() => box.open(sealed, 'user:2')).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1]! ^= 1;
    expect(() => box.open(`v1:${raw.toString('base64')}`, 'user:1')).toThrow();
    const short = Buffer.from(sealed.slice(3), 'base64');
    expect(() => box.open(`v1:${Buffer.concat([short.subarray(0, 20), short.subarray(28)]).toString('base64')}`, 'user:1')).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'user:1')).toThrow();
  });

  it('creates a key file readable by its owner only, and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'key-'));
    const file = join(dir, 'secret.key');
    const key = loadSecretKey('', file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadSecretKey('', file).equals(key)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(key.toString('base64'));
    rmSync(dir, { recursive: true, force: true });
  });
});
