import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { commitKeyFile, readKeyFile, stageKeyFile } from './key-file.ts';
import { privateDir, privateFile } from './private-files.ts';

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

/** The key from SECRET_KEY (base64), else from the file SECRET_KEY_FILE names (`external`), else DATA_DIR's key file `file`. */
export function loadSecretKey(fromEnv: string, file: string, external = ''): Buffer {
  if (fromEnv && external) throw new Error('set SECRET_KEY or SECRET_KEY_FILE, not both');
  if (fromEnv) return Buffer.from(fromEnv, 'base64');
  // A file outside DATA_DIR belongs to whoever provisions it (a read-only secret mount): read it, leave its modes alone.
  if (external) return readKeyFile(external);
  // DATA_DIR's own key file is created on first start; it and DATA_DIR are kept 0600 and 0700, an older install's looser modes tightened.
  privateDir(dirname(file));
  if (existsSync(file)) {
    privateFile(file);
    return readKeyFile(file);
  }
  const key = randomBytes(32);
  // Written aside and renamed: a crash during the first start cannot leave half a key behind.
  stageKeyFile(file, key);
  commitKeyFile(file);
  return key;
}
