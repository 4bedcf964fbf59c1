// Login round trips over loopback HTTP against a running server: the client's view, argon2id included.
import { solvedChallengeAt } from '../server/security/challenge.ts';

const password = 'Bench2026x';

/** Registers one account on `baseURL`, then times `n` sequential logins; returns ms per round trip. */
export async function measureLogins(baseURL: string, n: number): Promise<number[]> {
  const account = `bench${Date.now().toString(36)}`;
  const post = (path: string, body: object) => fetch(`${baseURL}/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const reg = (await (await post('/login/register', { terminal: 1, account, password, confirm: password, challenge: await solvedChallengeAt(baseURL) })).json()) as { code: number };
  if (reg.code !== 1) throw new Error(`register failed: ${JSON.stringify(reg)}`);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = (await (await post('/login/account', { terminal: 1 + (i % 3), account, password })).json()) as { code: number };
    times.push(performance.now() - t);
    if (res.code !== 1) throw new Error(`login failed: ${JSON.stringify(res)}`);
  }
  return times;
}
