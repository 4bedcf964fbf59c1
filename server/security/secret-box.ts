import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const VERSION = 'v1';

/**
 * AES-256-GCM for secrets at rest (exchange keys): a fresh 12-byte IV each time, a 16-byte tag checked
 * on the way out, and the owner bound in as additional data, so a ciphertext copied to another user's
 * row does not decrypt. Output: "v1:" + base64(iv | tag | ciphertext); the version allows key rotation.
 */
export class SecretBox {
  private readonly key: Buffer;
  constructor(key: Buffer) {
    if (key.length !== 32) throw new RangeError('SECRET_KEY must be 32 bytes (base64)');
    this.key = key;
  }

  seal(plain: string, owner: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: 16 });
    cipher.setAAD(Buffer.from(owner));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  /** A stable, non-secret tag of this key for `label` (hex): the same on every start of this installation. */
  fingerprint(label: string): string {
    return createHmac('sha256', this.key).update(label).digest('hex');
  }

  open(sealed: string, owner: string): string {
    const [version, data] = sealed.split(':');
    if (version !== VERSION || !data) throw new Error('unknown secret format');
    const raw = Buffer.from(data, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12), { authTagLength: 16 });
    decipher.setAAD(Buffer.from(owner));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/** The key from SECRET_KEY (base64), else from `file`, created (mode 0600) on first start. */
export function loadSecretKey(fromEnv: string, file: string): Buffer {
  if (fromEnv) return Buffer.from(fromEnv, 'base64');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  mkdirSync(dirname(file), { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64'), { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}
