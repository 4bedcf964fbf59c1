/**
 * Input rules shared by the PWA (form checks) and the server (schemas), so both say the same thing.
 * Plain values only: the PWA imports this file at run time.
 */
export const ACCOUNT_RE = /^[A-Za-z0-9][A-Za-z0-9_.@-]{3,63}$/;
/** 8 to 64 characters with at least one letter and one digit. */
export const PASSWORD_RE = /^(?=.*[A-Za-z])(?=.*\d)[\x21-\x7e]{8,64}$/;
export const PAYMENT_PASSWORD_RE = /^\d{6}$/;
export const REFERRER_RE = /^[A-Za-z0-9]{3,32}$/;
export const EMAIL_RE = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/;
export const MOBILE_RE = /^\+?\d{6,20}$/;
export const NICKNAME_MAX = 32;
export const AVATAR_MAX = 512;
export const REFERRER_MIN = 3;
export const PAGE_SIZE_DEFAULT = 10;
export const ACCOUNT_LOG_PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
/** `referrer` sets the inviter's UID, once. */
export const setInfoFields = ['nickname', 'avatar', 'email', 'mobile', 'referrer'] as const;
export type SetInfoField = (typeof setInfoFields)[number];
export const passwordTypes = ['login', 'payment'] as const;
export type PasswordType = (typeof passwordTypes)[number];

/**
 * Whether a profile value (already trimmed) is acceptable: one table for the PWA's form and the
 * server. Empty clears a field, except the nickname, which is what other users see.
 */
export const profileFieldOk: Record<SetInfoField, (value: string) => boolean> = {
  nickname: (v) => v.length >= 1 && [...v].length <= NICKNAME_MAX && !/\p{Cc}/u.test(v),
  email: (v) => v === '' || (v.length <= 128 && EMAIL_RE.test(v)),
  mobile: (v) => v === '' || MOBILE_RE.test(v),
  // https only (no http, javascript: or data:), or a path on this site; no protocol-relative //host.
  avatar: (v) => v === '' || (v.length <= AVATAR_MAX && /^(https:\/\/[^\s/]+\S*|\/(?!\/)\S*)$/.test(v)),
  referrer: (v) => REFERRER_RE.test(v),
};

/**
 * Simulated accounts: Paper, and those on a live exchange's prices, whose codes end in "sim"
 * (server/exchanges/catalog.ts holds them). Their bots are simulation, kept apart from live ones.
 */
export const isSimulatedCode = (code: string) => code === 'paper' || /^[a-z0-9]+sim$/.test(code);

/** An amount a trader types for money moves (deposit, withdraw, convert): up to 12 digits and 8 decimals. */
export const AMOUNT_RE = /^(0|[1-9]\d{0,11})(\.\d{1,8})?$/;
