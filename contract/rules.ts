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
export const setInfoFields = ['nickname', 'avatar', 'email', 'mobile'] as const;
export type SetInfoField = (typeof setInfoFields)[number];
export const passwordTypes = ['login', 'payment'] as const;
export type PasswordType = (typeof passwordTypes)[number];
