/**
 * The password login and registration calls with their proof-of-work challenge (* 5), loaded with the HTTP client when the trader touches the form (the /login entry stays small). The
 * server's challenge is solved with altcha-lib's solver on the browser's own crypto (PBKDF2-SHA-256,
 * 0.2-0.5 s on a phone). Registration always needs one; a login only when the server asks for it
 * (ChallengeRequired, after failures): then it is solved and the login sent once more.
 */
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import { Code } from '../../../contract/codes.ts';
import type { LoginChallenge } from '../../../contract/auth.ts';
import { api } from '../../lib/api.ts';
import { ApiError, type SentBody } from '../../lib/http.ts';

export { api };

/** Longer than any phone needs; a solver that has not finished by then gives up (the form says the call failed). */
const SOLVE_TIMEOUT_MS = 60_000;

/** The payload the server takes: base64 of {challenge, solution}. */
export async function solve(challenge: LoginChallenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey, timeout: SOLVE_TIMEOUT_MS });
  if (!solution) throw new Error('challenge not solved');
  return btoa(JSON.stringify({ challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } }));
}

/** Asks the server for a challenge and solves it; `checking` is true meanwhile (the form shows 安全验证中…). */
export async function solvedChallenge(checking: (on: boolean) => void = () => undefined): Promise<string> {
  checking(true);
  try {
    return await solve(await api.loginChallenge());
  } finally {
    checking(false);
  }
}

/** A password login; when the server asks for a solved challenge, solves one and sends the login again. */
export async function loginAccount(body: SentBody<'loginAccount'>, checking: (on: boolean) => void) {
  try {
    return await api.loginAccount(body);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === Code.ChallengeRequired)) throw error;
    return api.loginAccount({ ...body, challenge: await solvedChallenge(checking) });
  }
}
