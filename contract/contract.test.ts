import { describe, expect, it } from 'vitest';
import { calls, ourCalls, routesOf, specCallCount } from './calls.ts';
import { Code, sessionEndCodes } from './codes.ts';
import { ACCOUNT_RE, PASSWORD_RE, PAYMENT_PASSWORD_RE, REFERRER_RE } from './rules.ts';

describe('the contract', () => {
  it('gives every call an answer schema, and the PWA every route and its flags as plain data', () => {
    for (const [name, spec] of Object.entries(calls)) expect(typeof spec.answer.safeParse, name).toBe('function');
    const routes = routesOf();
    expect(Object.keys(routes)).toEqual(Object.keys(calls));
    // Plain data: JSON keeps all of it (no schema, no function), and nothing but the route's keys.
    expect(JSON.parse(JSON.stringify(routes))).toEqual(routes);
    expect(routes.userBotUpdate).toEqual({ method: 'PUT', path: '/user/botUpdate', screen: true, changes: calls.userBotUpdate.changes });
    expect(routes.loginAccount).toEqual({ method: 'POST', path: '/login/account', noAutoError: true, terminal: true, public: true });
  });

  it('covers the 45 rows of docs/product.md §7 plus logout and password', () => {
    const ours = Object.keys(calls).filter((name) => !(ourCalls as readonly string[]).includes(name));
    expect(ours).toHaveLength(specCallCount);
    const routes = new Set(Object.values(calls).map((c) => `${c.method} ${c.path}`));
    expect(routes.size).toBe(Object.keys(calls).length);
  });

  it('ends the session on NotLoggedIn, TokenExpired, SessionRevoked, SessionTriesExhausted and SessionReplaced, written as numbers', () => {
    expect(sessionEndCodes).toEqual([Code.NotLoggedIn, Code.TokenExpired, Code.SessionRevoked, Code.SessionTriesExhausted, Code.SessionReplaced]);
  });

  it('gives every code a distinct number', () => {
    const values = Object.values(Code);
    expect(new Set(values).size).toBe(values.length);
    expect(Code).toMatchObject({ Success: 1, NotLoggedIn: 101, TokenExpired: 1006, SessionRevoked: 2003 });
  });

  it('rejects unknown keys and never coerces JSON types', () => {
    const login = calls.loginAccount.body;
    expect(login.safeParse({ terminal: 1, account: 'abcd', password: 'x' }).success).toBe(true);
    expect(login.safeParse({ terminal: 1, account: 'abcd', password: 'x', admin: true }).success).toBe(false);
    expect(login.safeParse({ terminal: '1', account: 'abcd', password: 'x' }).success).toBe(false);
    expect(login.safeParse({ terminal: 5, account: 'abcd', password: 'x' }).success).toBe(false);
  });

  it('parses query pages strictly', () => {
    const q = calls.userBotList.query;
    expect(q.parse({ page: '2', page_size: '10' })).toEqual({ page: 2, page_size: 10 });
    for (const page of ['0', '-1', '1.5', 'abc', '01']) expect(q.safeParse({ page }).success).toBe(false);
    expect(q.safeParse({ page_size: '101' }).success).toBe(false);
  });

  it('states the docs/product.md §5 input rules', () => {
    expect(PAYMENT_PASSWORD_RE.test('123456')).toBe(true);
    expect(PAYMENT_PASSWORD_RE.test('12345a')).toBe(false);
    expect(REFERRER_RE.test('ab')).toBe(false);
    expect(REFERRER_RE.test('abc')).toBe(true);
    expect(PASSWORD_RE.test('abcdefgh')).toBe(false);
    expect(PASSWORD_RE.test('abcdefg1')).toBe(true);
    expect(ACCOUNT_RE.test('trader.01@x')).toBe(true);
    expect(ACCOUNT_RE.test('_bad')).toBe(false);
  });
});
