import Decimal from 'decimal.js';
import { encodeFunctionData, keccak256, parseUnits, type Address, type Chain, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { Db } from '../db/connect.ts';
import { post } from '../ledger.ts';
import { tokenAbi } from '../../contract/chain-abi.ts';
import { SerialRun } from './serial-run.ts';

/**
 * Sends the withdrawals from the hot wallet (issue 5 §4), one at a time, never twice:
 * pending -> signed (the signed transaction, with its fixed nonce, is stored before it is broadcast)
 * -> sent (broadcast) -> confirmed, or failed -> refunded in the same transaction.
 * After a crash a signed or sent withdrawal is broadcast again as the same bytes: the chain accepts one
 * transaction per nonce, so a request can never pay out twice. A transfer the chain would revert
 * (hot wallet short of USDT) fails before signing and is refunded.
 */
export interface SenderSettings {
  usdt: Address;
  decimals: number;
  chain: Chain;
  hotWalletKey: Hex;
}

type Row = { id: string; user_id: string; address: string; amount: string; fee: string; status: string; raw_tx: string | null; tx_hash: string | null; nonce: string | null };

export class WithdrawalSender {
  readonly account: PrivateKeyAccount;
  private readonly runs: SerialRun;
  private readonly db: Db;
  private readonly client: PublicClient;
  private readonly s: SenderSettings;
  private readonly log: { error(obj: unknown, msg: string): void } | undefined;

  constructor(db: Db, client: PublicClient, s: SenderSettings, log?: { error(obj: unknown, msg: string): void }) {
    this.db = db;
    this.client = client;
    this.s = s;
    this.log = log;
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
    const nonce = await this.client.getTransactionCount({ address: this.account.address, blockTag: 'pending' });
    const gas = await this.client.estimateGas({ account: this.account.address, to: this.s.usdt, data });
    const gasPrice = await this.client.getGasPrice();
    const raw = await this.account.signTransaction({ chainId: this.s.chain.id, to: this.s.usdt, data, nonce, gas: (gas * 12n) / 10n, gasPrice, type: 'legacy' });
    const hash = keccak256(raw);
    await this.db
      .updateTable('withdrawals')
      .set({ status: 'signed', raw_tx: raw, tx_hash: hash, nonce: String(nonce), updated_at: new Date() })
      .where('id', '=', w.id)
      .where('status', '=', 'pending')
      .execute();
  }

  private async broadcastAndSettle(w: Row): Promise<void> {
    const hash = w.tx_hash as Hex;
    const receipt = await this.client.getTransactionReceipt({ hash }).catch(() => null);
    if (receipt) {
      if (receipt.status === 'success') {
        await this.db.updateTable('withdrawals').set({ status: 'confirmed', updated_at: new Date() }).where('id', '=', w.id).execute();
      } else {
        await this.fail(w, 'reverted on chain');
      }
      return;
    }
    try {
      await this.client.sendRawTransaction({ serializedTransaction: w.raw_tx as Hex });
    } catch (e) {
      // "already known" / "nonce too low": the same bytes are on their way or mined; the receipt will tell.
      const message = shortError(e);
      if (!/already known|nonce too low|known transaction/i.test(message)) {
        this.log?.error({ err: { message }, withdrawal: w.id }, 'withdrawal broadcast failed; retried on the next block');
        return;
      }
    }
    if (w.status === 'signed') {
      await this.db.updateTable('withdrawals').set({ status: 'sent', updated_at: new Date() }).where('id', '=', w.id).where('status', '=', 'signed').execute();
    }
  }

  /** Failed: the amount goes back to the trader's USDT balance in the same transaction, with a notice. */
  private async fail(w: Row, reason: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const changed = await tx
        .updateTable('withdrawals')
        .set({ status: 'failed', error: reason.slice(0, 200), updated_at: new Date() })
        .where('id', '=', w.id)
        .where('status', 'in', ['pending', 'signed', 'sent'])
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) !== 1) return;
      await post(tx, { userId: w.user_id, asset: 'usdt', amount: new Decimal(w.amount), reason: 'refund', detail: { withdrawal: String(w.id) } });
      await tx
        .insertInto('notices')
        .values({ user_id: w.user_id, kind: 'warning', code: 'withdrawal_failed', detail: JSON.stringify({ withdrawal: String(w.id), amount: new Decimal(w.amount).toFixed(), address: w.address }) })
        .execute();
    });
  }
}

function shortError(e: unknown): string {
  const err = e as { shortMessage?: string; message?: string };
  return String(err?.shortMessage ?? err?.message ?? e).slice(0, 180);
}
