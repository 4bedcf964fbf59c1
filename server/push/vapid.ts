import { createECDH } from 'node:crypto';
import webPush from 'web-push';
import { PushSetupError } from './payload.ts';

/**
 * The application server's identity towards push services (VAPID, RFC 8292): a P-256 key pair, whose
 * public half the browser gets at subscription time, and a contact for the push service's operators.
 */
export interface Vapid {
  /** A mailto: address. */
  subject: string;
  /** The uncompressed public point, 65 bytes in base64url. */
  publicKey: string;
  /** The private scalar, 32 bytes in base64url. */
  privateKey: string;
}

/** A fresh key pair (its subject is the operator's to choose). */
export function generateVapidKeys(): Pick<Vapid, 'publicKey' | 'privateKey'> {
  return webPush.generateVAPIDKeys();
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const MAILTO = /^mailto:[^@\s/]+@[^@\s/]+\.[^@\s/]+$/;

/**
 * Refuses a VAPID configuration before the first send: keys of the wrong size or of two different pairs,
 * or a subject that is not a mailto: address. web-push also accepts an https: URL as the subject, but
 * Apple's push service answers BadJwtToken to an https://localhost one; a mailto: suits every service.
 */
export function checkVapid(vapid: Vapid): Vapid {
  if (!MAILTO.test(vapid.subject)) throw new PushSetupError(`The VAPID subject must be a mailto: address (e.g. mailto:ops@example.com), not "${vapid.subject}"`);
  checkKey('public', vapid.publicKey, 65);
  checkKey('private', vapid.privateKey, 32);
  // A public key of another pair would pass every check above and fail every send with a 403.
  let derived: string;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(vapid.privateKey, 'base64url'));
    derived = ecdh.getPublicKey('base64url', 'uncompressed');
  } catch {
    throw new PushSetupError('The VAPID private key is not a P-256 private key.');
  }
  if (derived !== vapid.publicKey) throw new PushSetupError("The VAPID public key is not the private key's.");
  return vapid;
}

function checkKey(which: string, key: string, bytes: number): void {
  if (!BASE64URL.test(key)) throw new PushSetupError(`The VAPID ${which} key must be base64url without padding.`);
  const length = Buffer.from(key, 'base64url').length;
  if (length !== bytes) throw new PushSetupError(`The VAPID ${which} key is ${length} bytes; it must be ${bytes}.`);
}
