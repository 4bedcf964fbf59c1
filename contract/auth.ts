/** Signing in and out: with an account and password, or with a wallet's signature on chain 56. */
import { z } from 'zod';
import type { Call } from './call.ts';
import { address, count, signature, time } from './fields.ts';
import { ACCOUNT_RE, PASSWORD_RE, REFERRER_RE } from './rules.ts';
import { securityViews } from './views.ts';

const terminal = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);
const account = z.string().trim().min(1, 'required').regex(ACCOUNT_RE, 'format');
const password = z.string().min(1, 'required').regex(PASSWORD_RE, 'format');
const referrer = z.string().trim().regex(REFERRER_RE, 'format');
const optionalReferrer = z.union([z.literal(''), referrer]).optional();
/** A solved proof-of-work challenge: the base64 ALTCHA payload (challenge and solution). */
const challengePayload = z
  .string()
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'format')
  .max(4000);
const hex = z.string().regex(/^[0-9a-f]+$/);

export const publicUserShape = {
  sn: z.string(),
  nickname: z.string(),
  account: z.string(),
  mobile: z.string(),
  address: z.string(),
  avatar: z.string(),
  /** The sn of the user who invited this one; '' when none. */
  referral: z.string(),
};
export const publicUserSchema = z.strictObject(publicUserShape);
export type PublicUser = z.infer<typeof publicUserSchema>;
/** The logged-in user (docs/product.md §3): what login answers, plus the token. */
export const loginDataSchema = z.strictObject({ token: z.string().min(1), ...publicUserShape });
export type LoginData = z.infer<typeof loginDataSchema>;
/** A statement to sign (wallet sign-in, a wallet account's payment proof) and until when it may be. */
export const nonceSchema = z.strictObject({ nonce: z.string().min(1), message: z.string().min(1), expiresAt: time });
export type Nonce = z.infer<typeof nonceSchema>;
/**
 * A proof-of-work challenge (ALTCHA v2, PBKDF2/SHA-256): find the counter whose derived key starts with
 * keyPrefix, then send base64(JSON {challenge, solution: {counter, derivedKey}}) as `challenge`.
 */
export const loginChallengeSchema = z.strictObject({
  parameters: z.strictObject({
    algorithm: z.string(),
    nonce: hex,
    salt: hex,
    cost: count,
    keyLength: count,
    keyPrefix: hex,
    keySignature: hex,
    /** Unix seconds. */
    expiresAt: count,
  }),
  signature: hex,
});
export type LoginChallenge = z.infer<typeof loginChallengeSchema>;

export const authCalls = {
  loginAccount: {
    method: 'POST',
    path: '/login/account',
    noAutoError: true,
    terminal: true,
    public: true,
    body: z.strictObject({ terminal, account, password: z.string().min(1, 'required').max(128), challenge: challengePayload.optional() }),
    answer: loginDataSchema,
  },
  loginNonce: { method: 'GET', path: '/login/nonce', noAutoError: true, public: true, query: z.strictObject({ address }), answer: nonceSchema },
  loginVerify: {
    method: 'POST',
    path: '/login/verify',
    noAutoError: true,
    terminal: true,
    public: true,
    body: z.strictObject({ address, signature, terminal, referrer: optionalReferrer, message: z.string().max(2000).optional() }),
    answer: loginDataSchema,
  },
  loginRegister: {
    method: 'POST',
    path: '/login/register',
    noAutoError: true,
    terminal: true,
    public: true,
    body: z.strictObject({
      terminal,
      account,
      password,
      confirm: z.string().min(1, 'required').max(128),
      referrer: optionalReferrer,
      agreement: z.boolean().optional(),
      /** Required: the server answers ChallengeRequired without it. */
      challenge: challengePayload.optional(),
    }),
    answer: loginDataSchema,
  },
  // A proof-of-work challenge for register and for logins after failures.
  loginChallenge: { method: 'GET', path: '/login/challenge', noAutoError: true, public: true, answer: loginChallengeSchema },
  loginLogout: { method: 'POST', path: '/login/logout', body: z.strictObject({}).optional(), answer: z.null() },
  // A wallet bound to an account signed in with a password (its signature of the nonce's statement).
  userBind: {
    method: 'POST',
    path: '/user/bind',
    changes: ['userIndex', 'authProfile', ...securityViews],
    body: z.strictObject({ address, signature, message: z.string().max(2000).optional() }),
    answer: publicUserSchema,
  },
} as const satisfies Record<string, Call>;
