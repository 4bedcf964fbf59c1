import { randomInt } from 'node:crypto';
import { createChallenge, solveChallenge, verifySolution, type Challenge, type Payload } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { LoginChallenge } from '../../contract/auth.ts';
import type { ChallengeSettings } from '../config.ts';
import type { Db } from '../db/connect.ts';
import { fail } from '../errors.ts';

export const CHALLENGE_ALGORITHM = 'PBKDF2/SHA-256';

/** The longest `challenge` field accepted: a solved payload is about 700 characters of base64. */
export const CHALLENGE_PAYLOAD_MAX = 4000;

/**
 * A self-hosted proof-of-work challenge (ALTCHA v2, altcha-lib): the server picks a secret try number
 * between counter/2 and counter, derives its key (PBKDF2-SHA-256, `cost` iterations) and sends the
 * first half of it; the client finds the try by deriving keys from 0 up. The challenge is signed with
 * an HMAC key of this installation (from the SecretBox key: the same in every process), so the server
 * keeps nothing while it is being solved; the solved key is checked against a second HMAC (no derivation
 * on the server). A solution is good for one call: its nonce is stored until the challenge expires,
 * in the database, so another process cannot take it a second time either.
 */
export class Challenges {
  private readonly db: Db;
  private readonly settings: ChallengeSettings;
  private readonly signatureSecret: string;
  private readonly keySecret: string;
  private lastPurge = 0;

  constructor(db: Db, secret: string, settings: ChallengeSettings) {
    this.db = db;
    this.settings = settings;
    this.signatureSecret = `${secret}:challenge`;
    this.keySecret = `${secret}:key`;
  }

  /** A new challenge, valid for the configured time. */
  async issue(now = Date.now()): Promise<LoginChallenge> {
    const { cost, counter, ttlMs } = this.settings;
    const low = Math.max(1, Math.floor(counter / 2));
    const made = await createChallenge({
      algorithm: CHALLENGE_ALGORITHM,
      cost,
      counter: low >= counter ? counter : randomInt(low, counter + 1),
      deriveKey,
      hmacSignatureSecret: this.signatureSecret,
      hmacKeySignatureSecret: this.keySecret,
      expiresAt: new Date(now + ttlMs),
    });
    // Exactly the signed fields (the library leaves unused ones undefined).
    const p = made.parameters;
    return {
      parameters: { algorithm: p.algorithm, cost: p.cost, expiresAt: p.expiresAt!, keyLength: p.keyLength, keyPrefix: p.keyPrefix, keySignature: p.keySignature!, nonce: p.nonce, salt: p.salt },
      signature: made.signature!,
    };
  }

  /**
   * Takes a solved challenge (the base64 ALTCHA payload) and uses it up: ChallengeRequired when there is
   * none, ChallengeFailed when it is malformed, forged, wrong, expired or was used before.
   */
  async use(payload: string | undefined): Promise<void> {
    if (!payload) throw fail('ChallengeRequired');
    const parsed = parsePayload(payload);
    if (!parsed) throw fail('ChallengeFailed');
    const { challenge, solution } = parsed;
    // Only ours: the algorithm and the cost are signed, but an unsigned or endless challenge is not.
    if (challenge.parameters.algorithm !== CHALLENGE_ALGORITHM || !challenge.parameters.expiresAt || !challenge.parameters.keySignature) throw fail('ChallengeFailed');
    let verified = false;
    try {
      verified = (await verifySolution({ challenge, solution, deriveKey, hmacSignatureSecret: this.signatureSecret, hmacKeySignatureSecret: this.keySecret })).verified;
    } catch {
      verified = false;
    }
    if (!verified) throw fail('ChallengeFailed');
    const nonce = challenge.parameters.nonce;
    const expiresAt = new Date(challenge.parameters.expiresAt * 1000);
    // The insert settles two uses at once, in any process: only one of them adds the row.
    const added = await this.db
      .insertInto('used_challenges')
      .values({ nonce, expires_at: expiresAt })
      .onConflict((oc) => oc.column('nonce').doNothing())
      .executeTakeFirst();
    if (Number(added.numInsertedOrUpdatedRows ?? 0) !== 1) throw fail('ChallengeFailed');
    this.purgeSometimes();
  }

  /** Forgets used challenges that have expired anyway (at most once a minute per process). */
  private purgeSometimes(): void {
    const now = Date.now();
    if (now - this.lastPurge < 60_000) return;
    this.lastPurge = now;
    this.db
      .deleteFrom('used_challenges')
      .where('expires_at', '<', new Date(now))
      .execute()
      .catch(() => undefined);
  }
}

function parsePayload(text: string): Payload | null {
  if (text.length > CHALLENGE_PAYLOAD_MAX) return null;
  try {
    const value = JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as Payload;
    const p = value?.challenge?.parameters;
    if (!p || typeof p !== 'object' || typeof p.nonce !== 'string' || !/^[0-9a-f]{1,64}$/.test(p.nonce)) return null;
    if (typeof value.challenge.signature !== 'string' || !value.solution || typeof value.solution !== 'object') return null;
    if (p.expiresAt !== undefined && (typeof p.expiresAt !== 'number' || !Number.isFinite(p.expiresAt))) return null;
    return value;
  } catch {
    return null;
  }
}

/** A payload as the PWA sends it: base64 of {challenge, solution}. */
export function encodePayload(challenge: LoginChallenge, solution: { counter: number; derivedKey: string }): string {
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** Solves a challenge in Node (tests, benchmarks, scripts): what the PWA does in the browser. */
export async function solve(challenge: LoginChallenge): Promise<string> {
  const solution = await solveChallenge({ challenge: challenge as Challenge, deriveKey });
  if (!solution) throw new Error('challenge not solved');
  return encodePayload(challenge, { counter: solution.counter, derivedKey: solution.derivedKey });
}

/** Asks a running server (base URL without /api) for a challenge and solves it. */
export async function solvedChallengeAt(baseURL: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${baseURL}/api/login/challenge`, { headers });
  const body = (await res.json()) as { code: number; data: LoginChallenge };
  if (body.code !== 1) throw new Error(`no challenge: ${JSON.stringify(body)}`);
  return solve(body.data);
}
