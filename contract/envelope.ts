/** The answer of every /api call (docs/product.md §3). `code` 1 is success; see codes.ts for the rest. */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
  /** A message is displayed only when `show` is absent or 1. */
  show?: 0 | 1;
  /** A path the client navigates to after 1 s. */
  redirect?: string;
}

/** Header carrying the UI language (zh or en) on every call. */
export const LANG_HEADER = 'lang';
/** Header marking calls whose errors the screen shows itself (docs/product.md §7). */
export const NO_AUTO_ERROR_HEADER = 'x-no-auto-error';

export const languages = ['zh', 'en'] as const;
export type Language = (typeof languages)[number];

/** Device terminal codes sent on login and register (docs/product.md §9). */
export const Terminal = { Default: 1, IOS: 2, Android: 3, Wallet: 4 } as const;
export type TerminalCode = (typeof Terminal)[keyof typeof Terminal];

/** One page of a list: every list answer has this shape. */
export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  page_size: number;
}
