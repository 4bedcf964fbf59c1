import type { FastifyInstance } from 'fastify';
import { login, register, type AccountsDeps } from '../../services/accounts.ts';
import { revokeSession } from '../../services/sessions.ts';
import { route } from '../route.ts';

/** Login, registration and logout. Wallet login (nonce, verify, bind) arrives with the wallet issue. */
export function authRoutes(app: FastifyInstance, deps: AccountsDeps): void {
  route(app, deps.db, 'loginRegister', {
    auth: false,
    fieldCodes: {
      account: 'AccountFormat',
      password: 'PasswordFormat',
      confirm: 'PasswordsMismatch',
      referrer: 'InvalidReferralCode',
    },
  }, ({ body }) => register(deps, body));

  route(app, deps.db, 'loginAccount', { auth: false, fieldCodes: { account: 'AccountFormat' } }, ({ body, ip }) => login(deps, body, ip));

  route(app, deps.db, 'loginLogout', { auth: true }, async ({ session }) => {
    await revokeSession(deps.db, session.sessionId);
    return null;
  });
}
