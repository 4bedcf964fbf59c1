/** The trader's own account: profile, home figures, passwords, two-factor authentication, devices. */
import { z } from 'zod';
import { nonceSchema, publicUserShape } from './auth.ts';
import type { Call } from './call.ts';
import { count, decimal, emptyBody, id, idInput, pageQuery, pageShape, pageSizeQuery, secondFactor, signature, time } from './fields.ts';
import { AVATAR_MAX, passwordTypes, setInfoFields } from './rules.ts';
import { securityViews } from './views.ts';

export const profileSchema = z.strictObject({
  ...publicUserShape,
  email: z.string(),
  /** Whether a login password exists (false for wallet-only accounts). */
  loginPasswordSet: z.boolean(),
  paymentPasswordSet: z.boolean(),
  createdAt: time,
});
export type Profile = z.infer<typeof profileSchema>;
/** Home's figures; balances are exact decimal strings. */
export const userIndexSchema = z.strictObject({ profile: profileSchema, fuel: decimal, points: decimal, referrals: count });
export type UserIndex = z.infer<typeof userIndexSchema>;
/** The security screen: what protects the account now. */
export const securityInfoSchema = z.strictObject({
  twoFactor: z.boolean(),
  recoveryCodesLeft: count,
  loginPasswordSet: z.boolean(),
  paymentPasswordSet: z.boolean(),
  /** The bound wallet ('' for none): a wallet-only account sets its payment password with its signature. */
  wallet: z.string(),
  walletProofNeeded: z.boolean(),
  withdrawLockedUntil: time.nullable(),
  /** How long withdrawals wait after a security change (WITHDRAW_LOCK_HOURS), in ms. */
  withdrawLockMs: z.number().int().min(0),
});
export type SecurityInfo = z.infer<typeof securityInfoSchema>;
/** One of the trader's live sessions, as the security screen lists it. */
export const sessionRowSchema = z.strictObject({
  id,
  /** The terminal code the login named (1 other, 2 iOS, 3 Android, 4 a wallet login). */
  terminal: z.number().int().min(1).max(4),
  /** The browser's user agent at login ('' when none was sent). */
  agent: z.string(),
  /** The login's source IP, as the server's limits saw it (TRUST_PROXY decides which). */
  ip: z.string(),
  createdAt: time,
  /** The last call through it, to the minute. */
  lastSeenAt: time,
  /** The session of the device asking. */
  current: z.boolean(),
});
export type SessionRow = z.infer<typeof sessionRowSchema>;
/** The list, and until when the asking session may end the others (null: log in again first). */
export const sessionListSchema = z.strictObject({ ...pageShape(sessionRowSchema), freshUntil: time.nullable() });
export type SessionList = z.infer<typeof sessionListSchema>;

export const accountCalls = {
  authProfile: { method: 'GET', path: '/auth/profile', answer: profileSchema },
  userIndex: { method: 'GET', path: '/user/index', answer: userIndexSchema },
  userSetInfo: {
    method: 'POST',
    path: '/user/setInfo',
    changes: ['userIndex', 'authProfile'],
    body: z.strictObject({ field: z.enum(setInfoFields), value: z.string().max(AVATAR_MAX) }),
    answer: profileSchema,
  },
  userPassword: {
    method: 'POST',
    path: '/user/password',
    changes: securityViews,
    body: z.strictObject({
      type: z.enum(passwordTypes),
      old: z.string().max(128).optional(),
      password: z.string().min(1, 'required').max(128),
      confirm: z.string().min(1, 'required').max(128),
      /** A wallet account's proof: its bound wallet's signature of the userPaymentNonce statement. */
      signature: signature.optional(),
      otp: secondFactor.optional(),
    }),
    answer: z.null(),
  },
  // Account security: two-factor authentication, the wallet's proof, the withdrawal lock.
  userSecurity: { method: 'GET', path: '/user/security', answer: securityInfoSchema },
  userTwoFactorSetup: {
    method: 'POST',
    path: '/user/twoFactor/setup',
    changes: securityViews,
    body: emptyBody,
    answer: z.strictObject({ secret: z.string().min(1), uri: z.string().regex(/^otpauth:\/\//, 'otpauth') }),
  },
  userTwoFactorEnable: {
    method: 'POST',
    path: '/user/twoFactor/enable',
    screen: true,
    changes: securityViews,
    body: z.strictObject({ code: z.string().regex(/^\d{6}$/, 'format') }),
    answer: z.strictObject({ recoveryCodes: z.array(z.string().min(1)).min(1) }),
  },
  userTwoFactorDisable: { method: 'POST', path: '/user/twoFactor/disable', screen: true, changes: securityViews, body: z.strictObject({ code: secondFactor }), answer: z.null() },
  // The statement a wallet-only account signs to prove itself (setting its payment password).
  userPaymentNonce: { method: 'GET', path: '/user/paymentNonce', answer: nonceSchema },
  // The security screen's list of signed-in devices, and signing them out (sent quietly: the screen says why not).
  userSessions: { method: 'GET', path: '/user/sessions', query: z.strictObject({ page: pageQuery, page_size: pageSizeQuery }), answer: sessionListSchema },
  userSessionEnd: { method: 'POST', path: '/user/sessions/end', changes: ['userSessions'], body: z.strictObject({ id: idInput }), answer: z.null() },
  userSessionEndOthers: { method: 'POST', path: '/user/sessions/endOthers', changes: ['userSessions'], body: emptyBody, answer: z.strictObject({ ended: count }) },
} as const satisfies Record<string, Call>;
