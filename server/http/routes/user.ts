import type { FastifyInstance } from 'fastify';
import { setInfoFields, type SetInfoField } from '../../../contract/rules.ts';
import type { AccountsDeps } from '../../services/accounts.ts';
import { changePassword } from '../../services/password-change.ts';
import { profile, setInfo, setInfoErrors, userIndex } from '../../services/profile.ts';
import { bindWallet, issuePaymentNonce } from '../../services/wallet.ts';
import { disableTwoFactor, enableTwoFactor, setupTwoFactor } from '../../services/security/two-factor.ts';
import { securityInfo } from '../../services/security/info.ts';
import { endOtherSessions, endSession, listSessions } from '../../services/security/session-list.ts';
import { userById } from '../../services/users.ts';
import { accountLogs, balances } from '../../ledger.ts';
import { listNotices, noticeDetail, readNotices } from '../../services/notices.ts';
import { referrals } from '../../services/referrals.ts';
import { ACCOUNT_LOG_PAGE_SIZE_DEFAULT, PAGE_SIZE_DEFAULT } from '../../../contract/rules.ts';
import { route } from '../route.ts';
import { siteOf } from '../site.ts';

const isField = (v: unknown): v is SetInfoField => setInfoFields.includes(v as SetInfoField);

/** The logged-in user's profile, summary, profile fields and passwords. */
export function userRoutes(app: FastifyInstance, deps: AccountsDeps): void {
  const { db } = deps;
  route(app, db, 'authProfile', { auth: true }, ({ session }) => profile(db, session.userId));
  route(app, db, 'userIndex', { auth: true }, ({ session }) => userIndex(db, session.userId));
  // The platform balances and their logs.
  route(app, db, 'userAccount', { auth: true }, ({ session }) => balances(db, session.userId));
  route(app, db, 'userAccountLogs', { auth: true }, ({ session, query }) => accountLogs(db, session.userId, query.type, query.page ?? 1, query.page_size ?? ACCOUNT_LOG_PAGE_SIZE_DEFAULT));
  // The team and what it earned the trader.
  route(app, db, 'userReferrals', { auth: true }, ({ session, query }) => referrals(db, session.userId, query.page ?? 1, query.limit ?? PAGE_SIZE_DEFAULT, deps.referralRates));
  // Notices and warnings.
  route(app, db, 'noticeList', { auth: true }, ({ session, query }) => listNotices(db, session.userId, query.kind, query.page ?? 1, query.page_size ?? PAGE_SIZE_DEFAULT));
  route(app, db, 'noticeDetail', { auth: true }, ({ session, query }) => noticeDetail(db, session.userId, query.id));
  route(app, db, 'noticeRead', { auth: true }, ({ session, body }) => readNotices(db, session.userId, body));
  // An account user binds a wallet with a signed sign-in message (one wallet per account, one account per wallet).
  route(app, db, 'userBind', { auth: true, fieldCodes: { address: 'InvalidAddress', signature: 'WalletSignatureFailed' } }, ({ session, body, request }) =>
    bindWallet(db, session.userId, body, siteOf(request, deps.publicOrigins)),
  );
  route(
    app,
    db,
    'userSetInfo',
    {
      auth: true,
      // A string the schema refuses (too long) gets the field's own code, e.g. InvalidAvatar; a value of
      // the wrong type is a client bug and stays a ValidationError.
      fieldCodes: { value: (input) => (isField(input.field) && typeof input.value === 'string' ? setInfoErrors[input.field] : undefined) },
    },
    ({ session, body }) => setInfo(db, session.userId, body.field, body.value),
  );
  route(app, db, 'userPassword', { auth: true }, async ({ session, body, request }) => {
    await changePassword(deps, session, body, siteOf(request, deps.publicOrigins));
    return null;
  });
  // Account security: the screen's facts, two-factor authentication, the wallet's proof.
  route(app, db, 'userSecurity', { auth: true }, ({ session }) => securityInfo(db, session.userId, deps.lockMs));
  route(app, db, 'userTwoFactorSetup', { auth: true }, ({ session }) => setupTwoFactor(deps, session.userId));
  route(app, db, 'userTwoFactorEnable', { auth: true }, ({ session, body }) => enableTwoFactor(deps, session, body.code));
  route(app, db, 'userTwoFactorDisable', { auth: true }, async ({ session, body }) => {
    await disableTwoFactor(deps, session, body.code);
    return null;
  });
  route(app, db, 'userPaymentNonce', { auth: true }, async ({ session, request }) => issuePaymentNonce(db, await userById(db, session.userId), siteOf(request, deps.publicOrigins)));
  // The signed-in devices, and signing them out (a fresh login of the asking device needed for the others).
  route(app, db, 'userSessions', { auth: true }, ({ session, query }) => listSessions(db, session, query.page ?? 1, query.page_size ?? PAGE_SIZE_DEFAULT));
  route(app, db, 'userSessionEnd', { auth: true, fieldCodes: { id: 'SessionNotFound' } }, async ({ session, body }) => {
    await endSession(db, session, body.id);
    return null;
  });
  route(app, db, 'userSessionEndOthers', { auth: true }, ({ session }) => endOtherSessions(db, session));
}
