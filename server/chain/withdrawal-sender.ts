import Decimal from 'decimal.js';
import { sql } from 'kysely';
import {
  encodeFunctionData,
  keccak256,
  parseUnits,
  recoverTransactionAddress,
  TransactionReceiptNotFoundError,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type TransactionSerializedLegacy,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { Db } from '../db/connect.ts';
import { post } from '../ledger.ts';
import { inTransaction, later } from '../events/outbox.ts';
import { leaveNotice } from '../events/notice.ts';
import { tokenAbi } from '../../contract/chain-abi.ts';
import { SerialRun } from './serial-run.ts';

/**
 * Sends the withdrawals from the hot wallet, never twice and never stuck:
 * - pending: debited, not signed. A transfer the chain would revert (hot wallet short of USDT) fails here.
 * - signed: the signed transaction and its nonce are stored before it is broadcast. The nonce comes from
 *   our own records, not the node's: one past the highest this hot wallet has signed, or the chain's
 *   pending count when that is higher (the wallet used elsewhere), chosen under a per-wallet lock in the
 *   transaction that stores the row; a unique index on (from_address, nonce) refuses a duplicate even
 *   from a second server process. So a failed broadcast never lends its nonce to the next withdrawal: the
 *   row stays signed and every run broadcasts the same bytes again (as after a crash) until a node takes
 *   them; the later nonces wait in the pool behind it.
 * - sent: a node took the bytes; every run broadcasts them again until the receipt comes.
 * - confirmed: the receipt says success.
 * - failed: rejected before signing, reverted on chain, or replaced: no receipt while another transaction
 *   used its nonce at least `confirmations` blocks under the head (no re-org brings ours back), so it can
 *   never be mined. The refund and a notice go in the transaction that marks it failed.
 * The chain accepts one transaction per nonce and a row keeps its bytes, so a request never pays out twice.
 */
export interface SenderSettings {
  usdt: Address;
  decimals: number;
  chain: Chain;
  hotWalletKey: Hex;
  /** Blocks under the head at which a nonce used by another transaction counts as final. */
  confirmations: number;
}

type Row = {
  id: string;
  user_id: string;
  address: string;
  amount: string;
  fee: string;
  status: string;
  from_address: string | null;
  raw_tx: string | null;
  tx_hash: string | null;
  nonce: string | null;
};

/** The withdrawal duty of a process among several (server/cluster/singletons.ts): who sends, fenced. */
export interface SenderDuty {
  held(): boolean;
  fence(tx: Db): Promise<void>;
}

export class WithdrawalSender {
  readonly account: PrivateKeyAccount;
  private readonly runs: SerialRun;
  private readonly db: Db;
  private readonly client: PublicClient;
  private readonly s: SenderSettings;
  private readonly log: { error(obj: unknown, msg: string): void } | undefined;
  private readonly duty: SenderDuty | undefined;

  constructor(db: Db, client: PublicClient, s: SenderSettings, log?: { error(obj: unknown, msg: string): void }, duty?: SenderDuty) {
    this.db = db;
    this.client = client;
    this.s = s;
    this.log = log;
    this.duty = duty;
    this.account = privateKeyToAccount(s.hotWalletKey);
    this.runs = new SerialRun(
      () => this.process(),
      (e) => log?.error({ err: { message: String((e as Error)?.message ?? e) } }, 'withdrawal sending failed'),
    );
  }

  /** Works through the open withdrawals (serialised: a call during a run runs once more after it). */
  kick(): Promise<void> {
    return this.runs.kick();
  }

  /** Resolves when no run is under way. */
  idle(): Promise<void> {
    return this.runs.idle();
  }

  private async process(): Promise<void> {
    // With several processes only the duty's holder sends; the others' kicks do nothing.
    if (this.duty && !this.duty.held()) return;
    const open = await this.db.selectFrom('withdrawals').selectAll().where('status', 'in', ['pending', 'signed', 'sent']).orderBy('id').limit(50).execute();
    for (const w of open) {
      if (w.status === 'pending') await this.sign(w);
      const row = await this.db.selectFrom('withdrawals').selectAll().where('id', '=', w.id).executeTakeFirstOrThrow();
      if (row.status === 'signed' || row.status === 'sent') await this.broadcastAndSettle(row);
    }
  }

  private async sign(w: Row): Promise<void> {
    const value = parseUnits(new Decimal(w.amount).minus(w.fee).toFixed(), this.s.decimals);
    const data = encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [w.address as Address, value] });
    try {
      // Would the chain accept it? A revert here (hot wallet short) fails the withdrawal before signing.
      await this.client.call({ account: this.account.address, to: this.s.usdt, data });
    } catch (e) {
      await this.fail(w, `rejected: ${shortError(e)}`);
      return;
    }
    const from = this.account.address;
    const [onChain, gas, gasPrice] = await Promise.all([
      this.client.getTransactionCount({ address: from, blockTag: 'pending' }),
      this.client.estimateGas({ account: from, to: this.s.usdt, data }),
      this.client.getGasPrice(),
    ]);
    await this.db.transaction().execute(async (tx) => {
      // One signing at a time per hot wallet across processes, until commit: the next one sees this nonce.
      await sql`select pg_advisory_xact_lock(hashtext(${from.toLowerCase()}))`.execute(tx);
      // A process that lost the duty while it waited (paused, cut off) signs nothing: DutyLost rolls back.
      await this.duty?.fence(tx);
      const still = await tx.selectFrom('withdrawals').select('id').where('id', '=', w.id).where('status', '=', 'pending').forUpdate().executeTakeFirst();
      if (!still) return; // another process signed or failed it meanwhile
      const { top } = await tx
        .selectFrom('withdrawals')
        .select((eb) => eb.fn.max('nonce').as('top'))
        .where('from_address', '=', from)
        .executeTakeFirstOrThrow();
      const nonce = Math.max(top === null ? 0 : Number(top) + 1, onChain);
      const raw = await this.account.signTransaction({ chainId: this.s.chain.id, to: this.s.usdt, data, nonce, gas: (gas * 12n) / 10n, gasPrice, type: 'legacy' });
      await tx
        .updateTable('withdrawals')
        .set({ status: 'signed', from_address: from, raw_tx: raw, tx_hash: keccak256(raw), nonce: String(nonce), updated_at: new Date() })
        .where('id', '=', w.id)
        .execute();
      await later(tx, w.user_id, { kind: 'withdrawal', withdrawal: String(w.id), status: 'signed' });
    });
  }

  private async broadcastAndSettle(w: Row): Promise<void> {
    const receipt = await this.receipt(w);
    if (receipt) {
      if (receipt.status === 'success') {
        await this.moved(w, 'confirmed', ['signed', 'sent']);
      } else {
        await this.fail(w, 'reverted on chain');
      }
      return;
    }
    if (await this.replaced(w)) {
      await this.fail(w, 'replaced: its nonce was used by another transaction');
      return;
    }
    try {
      await this.client.sendRawTransaction({ serializedTransaction: w.raw_tx as Hex });
    } catch (e) {
      // "already known" / "nonce too low": the same bytes are on their way or mined (the receipt will
      // tell), or another transaction took the nonce (replaced() will tell, once it is deep enough).
      const message = shortError(e);
      if (!/already known|nonce too low|known transaction/i.test(message)) {
        this.log?.error({ err: { message }, withdrawal: w.id }, 'withdrawal broadcast failed; retried on the next block');
        return;
      }
    }
    if (w.status === 'signed') {
      await this.moved(w, 'sent', ['signed']);
    }
  }

  /** The receipt, or null while the chain has none; an RPC failure throws (the run stops, nothing is decided). */
  private async receipt(w: Row) {
    try {
      return await this.client.getTransactionReceipt({ hash: w.tx_hash as Hex });
    } catch (e) {
      if (e instanceof TransactionReceiptNotFoundError) return null;
      throw e;
    }
  }

  /**
   * Whether another transaction used this one's nonce at least `confirmations` blocks under the head while
   * ours has no receipt: then ours can never be mined. Rows signed before from_address was kept name
   * their wallet through the signature.
   */
  private async replaced(w: Row): Promise<boolean> {
    const from = (w.from_address ?? (await recoverTransactionAddress({ serializedTransaction: w.raw_tx as TransactionSerializedLegacy }))) as Address;
    const deep = (await this.client.getBlockNumber({ cacheTime: 0 })) - BigInt(this.s.confirmations);
    if (deep < 0n) return false;
    const used = await this.client.getTransactionCount({ address: from, blockNumber: deep });
    // The receipt asked again after the count: had ours been mined meanwhile, it would show now.
    return used > Number(w.nonce) && (await this.receipt(w)) === null;
  }

  /** Moves a withdrawal on from one of `from`, telling its owner's open app in the same transaction. */
  private async moved(w: Row, status: 'sent' | 'confirmed', from: ('signed' | 'sent')[]): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      const changed = await tx.updateTable('withdrawals').set({ status, updated_at: new Date() }).where('id', '=', w.id).where('status', 'in', from).executeTakeFirst();
      if (Number(changed.numUpdatedRows) === 1) await later(tx, w.user_id, { kind: 'withdrawal', withdrawal: String(w.id), status });
    });
  }

  /** Failed: the amount goes back to the trader's USDT balance in the same transaction, with a notice. */
  private async fail(w: Row, reason: string): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      const changed = await tx
        .updateTable('withdrawals')
        .set({ status: 'failed', error: reason.slice(0, 200), updated_at: new Date() })
        .where('id', '=', w.id)
        .where('status', 'in', ['pending', 'signed', 'sent'])
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) !== 1) return;
      await post(tx, { userId: w.user_id, asset: 'usdt', amount: new Decimal(w.amount), reason: 'refund', detail: { withdrawal: String(w.id) } });
      await leaveNotice(tx, w.user_id, { kind: 'warning', code: 'withdrawal_failed', detail: { withdrawal: String(w.id), amount: new Decimal(w.amount).toFixed(), address: w.address } });
      await later(tx, w.user_id, { kind: 'withdrawal', withdrawal: String(w.id), status: 'failed' });
    });
  }
}

function shortError(e: unknown): string {
  const err = e as { shortMessage?: string; message?: string };
  return String(err?.shortMessage ?? err?.message ?? e).slice(0, 180);
}
