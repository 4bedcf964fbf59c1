import Decimal from 'decimal.js';
import { formatUnits, getAddress, type Address, type Log, type PublicClient } from 'viem';
import type { Db } from '../db/connect.ts';
import { post } from '../ledger.ts';
import { inTransaction, later } from '../events/outbox.ts';
import { SerialRun } from './serial-run.ts';
import { depositAbi, tokenAbi } from '../../contract/chain-abi.ts';

/**
 * The deposit watcher. It credits USDT that reaches the deposit contract on chain 56,
 * exactly once, after `confirmations` blocks (the including block counts as one):
 * - a `Deposited(account, from, amount)` event of QuantDeposit is credited to the user whose UID is
 *   `account`;
 * - a plain USDT transfer to the contract from a wallet bound to an account is credited to that account
 *   (a transfer made by deposit() itself is not counted twice);
 * - anything else is recorded as unmatched, for support to resolve.
 * Only blocks at least `confirmations` deep are read, so a re-org within that depth never reaches the
 * books; the credits and the cursor (the last block read) move in one transaction, with the cursor row
 * locked, and each log is a unique row: a restart, a crash or a second watcher never credits twice.
 */
export interface WatcherSettings {
  usdt: Address;
  deposit: Address;
  confirmations: number;
  /** The first block to read on a fresh database. */
  startBlock: bigint;
  decimals: number;
  /** Blocks read per getLogs call. */
  span?: bigint;
}

export interface ScanResult {
  from: bigint;
  to: bigint;
  credited: number;
}

type Credit = { txHash: string; logIndex: number; block: bigint; from: string; value: bigint; account?: string };

export class DepositWatcher {
  readonly cursorName: string;
  private stopWatch: (() => void) | undefined;
  private readonly runs: SerialRun;

  private readonly db: Db;
  private readonly client: PublicClient;
  private readonly s: WatcherSettings;

  constructor(db: Db, client: PublicClient, s: WatcherSettings, log?: { error(obj: unknown, msg: string): void }) {
    this.db = db;
    this.client = client;
    this.s = s;
    this.cursorName = `deposits:${s.deposit.toLowerCase()}`;
    this.runs = new SerialRun(
      () => this.catchUp(),
      (e) => log?.error({ err: { message: String((e as Error)?.message ?? e) } }, 'deposit scan failed'),
    );
  }

  /** The last block credited so far (startBlock - 1 on a fresh database). */
  async cursor(): Promise<bigint> {
    const row = await this.db.selectFrom('chain_cursors').select('block').where('name', '=', this.cursorName).executeTakeFirst();
    return row ? BigInt(row.block) : this.s.startBlock - 1n;
  }

  /** Reads the confirmed blocks not read yet and credits their deposits; answers the range read, if any. */
  async scan(): Promise<ScanResult | null> {
    const head = await this.client.getBlockNumber({ cacheTime: 0 });
    const safe = head - BigInt(this.s.confirmations - 1);
    const cursor = await this.cursor();
    if (safe <= cursor) return null;
    const from = cursor + 1n;
    const to = safe < from + (this.s.span ?? 2000n) - 1n ? safe : from + (this.s.span ?? 2000n) - 1n;
    const credits = await this.read(from, to);
    const credited = await inTransaction(this.db, async (tx) => {
      await tx
        .insertInto('chain_cursors')
        .values({ name: this.cursorName, block: String(this.s.startBlock - 1n) })
        .onConflict((c) => c.column('name').doNothing())
        .execute();
      const locked = await tx.selectFrom('chain_cursors').select('block').where('name', '=', this.cursorName).forUpdate().executeTakeFirstOrThrow();
      if (BigInt(locked.block) !== cursor) return -1; // another watcher read these blocks meanwhile
      let n = 0;
      for (const c of credits) if (await this.credit(tx, c)) n++;
      await tx
        .updateTable('chain_cursors')
        .set({ block: String(to), updated_at: new Date() })
        .where('name', '=', this.cursorName)
        .execute();
      return n;
    });
    if (credited < 0) return null;
    return { from, to, credited };
  }

  /** Scans until the confirmed head is reached (several spans on a long way behind). */
  async catchUp(): Promise<number> {
    let total = 0;
    for (let r = await this.scan(); r; r = await this.scan()) total += r.credited;
    return total;
  }

  /** One more catch-up, serialised: called during a scan, it runs once more after it. */
  follow(): Promise<void> {
    return this.runs.kick();
  }

  /** Follows the chain on its own: a catch-up on every new block. */
  start(pollMs: number): void {
    this.stopWatch = this.client.watchBlockNumber({ onBlockNumber: () => void this.follow(), pollingInterval: pollMs, emitMissed: false, emitOnBegin: true, onError: () => undefined });
  }

  async stop(): Promise<void> {
    this.stopWatch?.();
    this.stopWatch = undefined;
    await this.runs.idle();
  }

  private async read(fromBlock: bigint, toBlock: bigint): Promise<Credit[]> {
    const [deposits, transfers] = await Promise.all([
      this.client.getLogs({ address: this.s.deposit, event: depositAbi[0], fromBlock, toBlock, strict: true }),
      this.client.getLogs({ address: this.s.usdt, event: tokenAbi[0], args: { to: this.s.deposit }, fromBlock, toBlock, strict: true }),
    ]);
    const depositTxs = new Set(deposits.map((l) => l.transactionHash));
    const out: Credit[] = [];
    const base = (l: Log) => ({ txHash: l.transactionHash!, logIndex: l.logIndex!, block: l.blockNumber! });
    for (const l of deposits) out.push({ ...base(l), from: getAddress(l.args.from), value: l.args.amount, account: String(l.args.account) });
    for (const l of transfers) if (!depositTxs.has(l.transactionHash)) out.push({ ...base(l), from: getAddress(l.args.from), value: l.args.value });
    return out.sort((a, b) => (a.block === b.block ? a.logIndex - b.logIndex : a.block < b.block ? -1 : 1));
  }

  /** Records one log and credits it; false when it was recorded before (never credited twice). */
  private async credit(tx: Db, c: Credit): Promise<boolean> {
    const user =
      c.account !== undefined
        ? await tx.selectFrom('users').select('id').where('sn', '=', c.account).executeTakeFirst()
        : await tx.selectFrom('users').select('id').where('address', '=', c.from).executeTakeFirst();
    const amount = new Decimal(formatUnits(c.value, this.s.decimals));
    const row = await tx
      .insertInto('deposits')
      .values({
        user_id: user?.id ?? null,
        tx_hash: c.txHash,
        log_index: c.logIndex,
        block_number: String(c.block),
        from_address: c.from,
        amount: amount.toFixed(),
        status: user ? 'credited' : 'unmatched',
        credited_at: user ? new Date() : null,
      })
      .onConflict((oc) => oc.columns(['tx_hash', 'log_index']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row || !user) return false;
    await post(tx, { userId: user.id, asset: 'usdt', amount, reason: 'deposit', detail: { txHash: c.txHash, block: String(c.block) } });
    await later(tx, user.id, { kind: 'deposit', deposit: String(row.id), amount: amount.toFixed() });
    // The hash the trader reported (if any) is settled by this credit.
    await tx.deleteFrom('deposits').where('tx_hash', '=', c.txHash).where('log_index', '=', -1).where('user_id', '=', user.id).execute();
    return true;
  }
}
