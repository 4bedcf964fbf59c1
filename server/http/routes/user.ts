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
import { registerCalls } from '../route.ts';
import { siteOf } from '../site.ts';

const isField = (v: unknown): v is SetInfoField => setInfoFields.includes(v as SetInfoField);

/** The logged-in user's profile, summary, profile fields and passwords. */
export function userRoutes(app: FastifyInstance, deps: AccountsDeps): void {
  const { db } = deps;
  registerCalls(app, db, {
    authProfile: ({ session }) => profile(db, session.userId),
    userIndex: ({ session }) => userIndex(db, session.userId),
    // The platform balances and their logs.
    userAccount: ({ session }) => balances(db, session.userId),
    userAccountLogs: ({ session, query }) => accountLogs(db, session.userId, query.type, query.page ?? 1, query.page_size ?? ACCOUNT_LOG_PAGE_SIZE_DEFAULT),
    // The team and what it earned the trader.
    userReferrals: ({ session, query }) => referrals(db, session.userId, query.page ?? 1, query.limit ?? PAGE_SIZE_DEFAULT, deps.referralRates),
    // Notices and warnings.
    noticeList: ({ session, query }) => listNotices(db, session.userId, query.kind, query.page ?? 1, query.page_size ?? PAGE_SIZE_DEFAULT),
    noticeDetail: ({ session, query }) => noticeDetail(db, session.userId, query.id),
    noticeRead: ({ session, body }) => readNotices(db, session.userId, body),
    // An account user binds a wallet with a signed sign-in message (one wallet per account, one account per wallet).
    userBind: {
      fieldCodes: { address: 'InvalidAddress', signature: 'WalletSignatureFailed' },
      handle: ({ session, body, request }) => bindWallet(db, session.userId, body, siteOf(request, deps.publicOrigins)),
    },
    // A string the schema refuses (too long) gets the field's own code, e.g. InvalidAvatar; a value of
    // the wrong type is a client bug and stays a ValidationError.
    userSetInfo: {
      fieldCodes: { value: (input) => (isField(input.field) && typeof input.value === 'string' ? setInfoErrors[input.field] : undefined) },
      handle: ({ session, body }) => setInfo(db, session.userId, body.field, body.value),
    },
    userPassword: async ({ session, body, request }) => {
      await changePassword(deps, session, body, siteOf(request, deps.publicOrigins));
      return null;
    },
    // Account security: the screen's facts, two-factor authentication, the wallet's proof.
    userSecurity: ({ session }) => securityInfo(db, session.userId, deps.lockMs),
    userTwoFactorSetup: ({ session }) => setupTwoFactor(deps, session.userId),
    userTwoFactorEnable: ({ session, body }) => enableTwoFactor(deps, session, body.code),
    userTwoFactorDisable: async ({ session, body }) => {
      await disableTwoFactor(deps, session, body.code);
      return null;
    },
    userPaymentNonce: async ({ session, request }) => issuePaymentNonce(db, await userById(db, session.userId), siteOf(request, deps.publicOrigins)),
    // The signed-in devices, and signing them out (a fresh login of the asking device needed for the others).
    userSessions: ({ session, query }) => listSessions(db, session, query.page ?? 1, query.page_size ?? PAGE_SIZE_DEFAULT),
    userSessionEnd: {
      fieldCodes: { id: 'SessionNotFound' },
      handle: async ({ session, body }) => {
        await endSession(db, session, body.id);
        return null;
      },
    },
    userSessionEndOthers: ({ session }) => endOtherSessions(db, session),
  });
}
