import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitKeyFile, stageKeyFile } from './key-file.ts';
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

  it("reads SECRET_KEY_FILE as it is, never creating DATA_DIR's key file, and refuses it beside SECRET_KEY", () => {
    const dir = mkdtempSync(join(tmpdir(), 'key-'));
    const external = join(dir, 'mounted.key');
    const key = randomBytes(32);
    writeFileSync(external, `${key.toString('base64')}\n`, { mode: 0o440 });
    const file = join(dir, 'data', 'secret.key');
    expect(loadSecretKey('', file, external).equals(key)).toBe(true);
    expect(existsSync(file)).toBe(false);
    expect(statSync(external).mode & 0o777).toBe(0o440);
    expect(() => loadSecretKey(key.toString('base64'), file, external)).toThrow('not both');
    expect(() => loadSecretKey('', file, join(dir, 'missing.key'))).toThrow(/ENOENT/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('names a key file of the wrong length without showing what it holds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'key-'));
    const file = join(dir, 'secret.key');
    writeFileSync(file, 'c2hvcnQ=');
    expect(() => loadSecretKey('', file)).toThrow(`${file} must hold the base64 of 32 bytes`);
    expect(() => loadSecretKey('', file)).not.toThrow(/c2hvcnQ/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('stages a new key file beside the old one, refuses to stage over a staged one, and swaps it in whole', () => {
    const dir = mkdtempSync(join(tmpdir(), 'key-'));
    const file = join(dir, 'secret.key');
    const old = loadSecretKey('', file);
    const next = randomBytes(32);
    stageKeyFile(file, next);
    expect(statSync(`${file}.new`).mode & 0o777).toBe(0o600);
    expect(loadSecretKey('', file).equals(old)).toBe(true);
    expect(() => stageKeyFile(file, randomBytes(32))).toThrow('an earlier rotation stopped half-way');
    commitKeyFile(file);
    expect(existsSync(`${file}.new`)).toBe(false);
    expect(loadSecretKey('', file).equals(next)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    rmSync(dir, { recursive: true, force: true });
  });
});
