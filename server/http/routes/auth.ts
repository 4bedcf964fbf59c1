import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LoginData } from '../../../contract/auth.ts';
import { noteDevice } from '../../services/security/devices.ts';
import type { Challenges } from '../../security/challenge.ts';
import { login, register, type AccountsDeps } from '../../services/accounts.ts';
import { describeSession, revokeSession } from '../../services/sessions.ts';
import { sourceOf } from '../../services/login-limiter.ts';
import { issueNonce, walletLogin } from '../../services/wallet.ts';
import { registerCalls } from '../route.ts';
import { siteOf } from '../site.ts';

/**
 * Login, registration and logout, by account and password or by a wallet's signature (SIWE, chain 56).
 * Every call here but logout needs no token and is rate-limited per source (route()); registration
 * always needs a solved proof-of-work challenge, a login after failures too.
 */
export function authRoutes(app: FastifyInstance, deps: AccountsDeps & { challenges: Challenges }): void {
  /** A login from a device the account has not used before leaves a security notice. */
  const seen = async (data: LoginData, terminal: number, request: FastifyRequest, ip: string): Promise<LoginData> => {
    const user = await deps.db.selectFrom('users').select('id').where('sn', '=', data.sn).executeTakeFirstOrThrow();
    await noteDevice(deps.db, String(user.id), { terminal, userAgent: request.headers['user-agent'], ip });
    // The security screen lists the session with its device and place, so the owner can end it.
    await describeSession(deps.db, data.token, { agent: request.headers['user-agent'], ip: sourceOf(ip) });
    return data;
  };
  registerCalls(app, deps.db, {
    loginChallenge: () => deps.challenges.issue(),
    loginRegister: {
      fieldCodes: {
        account: 'AccountFormat',
        password: 'PasswordFormat',
        confirm: 'PasswordsMismatch',
        referrer: 'InvalidReferralCode',
        challenge: 'ChallengeFailed',
      },
      handle: async ({ body, ip, request }) => seen(await register(deps, body), body.terminal, request, ip),
    },
    loginAccount: { fieldCodes: { account: 'AccountFormat', challenge: 'ChallengeFailed' }, handle: async ({ body, ip, request }) => seen(await login(deps, body, ip), body.terminal, request, ip) },
    loginNonce: { fieldCodes: { address: 'InvalidAddress' }, handle: ({ query, request }) => issueNonce(deps.db, query.address, siteOf(request, deps.publicOrigins)) },
    loginVerify: {
      fieldCodes: { address: 'InvalidAddress', signature: 'WalletSignatureFailed', referrer: 'InvalidReferralCode' },
      handle: async ({ body, request, ip }) => seen(await walletLogin(deps, body, siteOf(request, deps.publicOrigins)), body.terminal, request, ip),
    },
    loginLogout: async ({ session }) => {
      await revokeSession(deps.db, session.sessionId);
      return null;
    },
  });
}
