import type { Page } from 'playwright-core';
import { openPhone, uniqueAccount, type Phone } from './browser.ts';
import { solvedChallengeAt } from '../../server/security/challenge.ts';

export const PASSWORD = 'Trade2026x';

export type Registered = { token: string; sn: string } & Record<string, string>;

/** Registers a new account through the API (with a referrer when given). */
export async function register(baseURL: string, referrer?: string): Promise<Registered> {
  const res = await fetch(`${baseURL}/api/login/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // Registration needs a solved proof-of-work challenge (solved here in Node, as the PWA does in the browser).
    body: JSON.stringify({ terminal: 1, account: uniqueAccount('f'), password: PASSWORD, confirm: PASSWORD, challenge: await solvedChallengeAt(baseURL), ...(referrer ? { referrer } : {}) }),
  });
  return ((await res.json()) as { data: Registered }).data;
}

/** Puts a session into the page's storage, as a login does. */
export async function storeSession(page: Page, user: Registered): Promise<void> {
  const { token, ...rest } = user;
  await page.goto('/test');
  await page.evaluate(
    ([t, u]) => {
      localStorage.setItem('token', JSON.stringify(t));
      localStorage.setItem('user', JSON.stringify({ ...JSON.parse(u!), password: true }));
    },
    [token, JSON.stringify(rest)] as const,
  );
}

/** Calls the API as `user` (path from /api on) and answers the envelope. */
// biome-ignore lint/suspicious/noExplicitAny: browser tests read answers of every shape; a call site names its type where it reads fields
export async function callAs<T = any>(baseURL: string, user: { token: string }, method: string, path: string, body?: unknown): Promise<{ code: number; msg: string; data: T }> {
  const res = await fetch(`${baseURL}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return (await res.json()) as { code: number; msg: string; data: T };
}

/** A phone with a new user logged in through storage (the login screen has its own tests). */
export async function loggedInPhone(baseURL: string): Promise<{ phone: Phone; page: Page; user: Registered }> {
  const phone = await openPhone(baseURL);
  const user = await register(baseURL);
  await storeSession(phone.page, user);
  return { phone, page: phone.page, user };
}
