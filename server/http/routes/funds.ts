import type { FastifyInstance } from 'fastify';
import type { ChainSide } from '../../chain/chain-side.ts';
import type { Db } from '../../db/connect.ts';
import { change, changeInfo } from '../../services/funds/changes.ts';
import { depositAddress, depositInfo, reportDeposit } from '../../services/funds/deposits.ts';
import { withdraw, withdrawInfo } from '../../services/funds/withdrawals.ts';
import type { LoginLimiter } from '../../services/login-limiter.ts';
import { registerCalls } from '../route.ts';
import { fail } from '../../errors.ts';
import type { SecretBox } from '../../security/secret-box.ts';

export interface FundsDeps {
  db: Db;
  limiter: LoginLimiter;
  /** Chain 56; absent when not configured (deposits and withdrawals answer ChainUnavailable). */
  chain: ChainSide | undefined;
  /** CHANGE_RATES. */
  changeRates: Record<string, string>;
  box: SecretBox;
  /** WITHDRAW_LOCK_HOURS in ms: withdrawals wait that long after a security change or for a new address. */
  lockMs: number;
  /** A demo's faucet: the local dev chain (DEV_CHAIN=1) sends test USDT and BNB; absent on any real chain. */
  faucet?: ((to: `0x${string}`) => Promise<{ usdt: string; bnb: string }>) | undefined;
}

/** Faucet gifts one trader may ask for in an hour (a demo's: a script cannot drain the test token into one wallet). */
const FAUCET_LIMIT = { max: 5, windowMs: 3_600_000 };

/** Money in and out: deposits and withdrawals on chain 56, changes between the balances. */
export function fundsRoutes(app: FastifyInstance, deps: FundsDeps): void {
  const { db, chain } = deps;
  registerCalls(app, db, {
    userDepositInfo: ({ session }) => depositInfo(db, chain, session.userId, deps.faucet !== undefined),
    userFaucet: {
      fieldCodes: { address: 'InvalidAddress' },
      handle: async ({ session, body }) => {
        if (!deps.faucet) throw fail('ChainUnavailable');
        if (app.hasDecorator('countLimit')) await app.countLimit(`faucet:${session.userId}`, FAUCET_LIMIT);
        const address = body.address as `0x${string}`;
        return { address, ...(await deps.faucet(address)) };
      },
    },
    userDepositAddress: ({ session, query }) => depositAddress(db, chain, session.userId, query.network),
    userDeposit: { fieldCodes: { txHash: 'InvalidTxHash' }, handle: ({ session, body }) => reportDeposit(db, chain, session.userId, body) },
    userWithdrawInfo: ({ session }) => withdrawInfo(db, chain, session.userId, deps.lockMs),
    userWithdraw: { fieldCodes: { address: 'InvalidAddress', amount: 'InvalidAmount', payPassword: 'PaymentPasswordFormat' }, handle: ({ session, body }) => withdraw(deps, session, body) },
    userChangeInfo: ({ session }) => changeInfo(db, deps.changeRates, session.userId),
    userChange: {
      fieldCodes: { amount: 'InvalidAmount', payPassword: 'PaymentPasswordFormat', from: 'ChangeUnsupported', to: 'ChangeUnsupported' },
      handle: ({ session, body }) => change({ db, limiter: deps.limiter, rates: deps.changeRates }, session, body),
    },
  });
}
