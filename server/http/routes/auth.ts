import type { FastifyInstance } from 'fastify';
import { login, register, type AccountsDeps } from '../../services/accounts.ts';
import { revokeSession } from '../../services/sessions.ts';
import { issueNonce, walletLogin } from '../../services/wallet.ts';
import { route } from '../route.ts';
import { siteOf } from '../site.ts';

/** Login, registration and logout, by account and password or by a wallet's signature (SIWE, chain 56). */
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

  route(app, deps.db, 'loginNonce', { auth: false, fieldCodes: { address: 'InvalidAddress' } }, ({ query, request }) => issueNonce(deps.db, query.address, siteOf(request, deps.publicOrigins)));
  route(app, deps.db, 'loginVerify', { auth: false, fieldCodes: { address: 'InvalidAddress', signature: 'WalletSignatureFailed', referrer: 'InvalidReferralCode' } }, ({ body, request }) =>
    walletLogin(deps, body, siteOf(request, deps.publicOrigins)),
  );

  route(app, deps.db, 'loginLogout', { auth: true }, async ({ session }) => {
    await revokeSession(deps.db, session.sessionId);
    return null;
  });
}
