import type { z } from 'zod';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * How the PWA treats a call: plain data, which the PWA reads at run time (the build derives the table
 * from the calls, without zod: vite.config.ts `contractCalls`).
 * `screen`: the screen shows the call's errors itself (docs/product.md §7), the client toasts nothing.
 * `noAutoError`: sent with the no-auto-error header (login, register, nonce, verify); also screen-handled.
 * `terminal`: the body carries the device terminal code. `public`: no token needed.
 * `changes`: the reads a write's success makes stale, which the PWA fetches again (src/shared/query.ts write()).
 */
export interface CallRoute {
  method: Method;
  path: string;
  screen?: true;
  noAutoError?: true;
  terminal?: true;
  public?: true;
  changes?: readonly string[];
}

/**
 * One call, whole: its route and flags, what it takes (the JSON body, the query as strings, the path's
 * params) and the `data` of its success envelope (code 1). The server validates every input with these
 * strictly and checks its answers against `answer` in the tests, the OpenAPI document and the fuzzer;
 * the PWA imports the inferred types only.
 */
export interface Call extends CallRoute {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  answer: z.ZodType;
}

/** The plain route of each call, for the PWA: every field but the schemas. */
export type RouteOf<C> = Pick<C, Extract<keyof C, keyof CallRoute>>;

export const routeKeys = ['method', 'path', 'screen', 'noAutoError', 'terminal', 'public', 'changes'] as const satisfies readonly (keyof CallRoute)[];
