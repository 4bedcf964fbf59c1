// Deposit credit latency: a deposit on a local chain 56 (anvil, the project's contracts) is
// followed by the watcher at the default CHAIN_POLL_MS (500 ms); blocks are mined one at a time, and
// the clock starts when the block that reaches the confirmation depth is mined. No further block is
// mined until the credit lands, so "blocks after depth" counts how many more the credit needed (0 is
// "within the block"); BSC makes a block every 0.75-3 s, so the latency must stay under that.
import { parseUnits } from 'viem';
import { depositAbi, tokenAbi } from '../contract/chain-abi.ts';
import { startDevChain } from '../server/chain/dev-chain.ts';
import { DepositWatcher } from '../server/chain/watcher.ts';
import { migrate, openDatabase } from '../server/db/connect.ts';
import { balances } from '../server/ledger.ts';
import { median } from './stats.ts';

export async function measureDepositCredit(runs = 8, confirmations = 15, pollMs = 500) {
  const chain = await startDevChain();
  const db = await openDatabase();
  await migrate(db);
  const watcher = new DepositWatcher(db, chain.public, { usdt: chain.usdt, deposit: chain.deposit, confirmations, startBlock: 1n, decimals: 18 });
  try {
    const user = await db
      .insertInto('users')
      .values({ sn: '31415926', account: 'bench', password_hash: null, payment_hash: null, nickname: 'b', email: '', mobile: '', address: null, avatar: '', referrer_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await watcher.catchUp();
    watcher.start(pollMs);
    const latencies: number[] = [];
    let worstBlocksAfter = 0;
    for (let i = 1; i <= runs; i++) {
      const trader = await chain.trader('20');
      const value = parseUnits('20', 18);
      await chain.public.waitForTransactionReceipt({ hash: await trader.wallet.writeContract({ address: chain.usdt, abi: tokenAbi, functionName: 'approve', args: [chain.deposit, value] }) });
      await chain.public.waitForTransactionReceipt({ hash: await trader.wallet.writeContract({ address: chain.deposit, abi: depositAbi, functionName: 'deposit', args: [value, 31415926n] }) });
      for (let b = 1; b < confirmations - 1; b++) await chain.mine(1);
      const expected = String(20 * i);
      await chain.mine(1); // this block reaches the depth
      const depthBlock = await chain.public.getBlockNumber({ cacheTime: 0 });
      const start = performance.now();
      while ((await balances(db, String(user.id))).usdt !== expected) await new Promise((r) => setTimeout(r, 5));
      latencies.push(performance.now() - start);
      worstBlocksAfter = Math.max(worstBlocksAfter, Number((await chain.public.getBlockNumber({ cacheTime: 0 })) - depthBlock));
    }
    return { confirmations, pollMs, medianMs: Math.round(median(latencies)), maxMs: Math.round(Math.max(...latencies)), blocksAfterDepth: worstBlocksAfter, runs: latencies.map(Math.round) };
  } finally {
    await watcher.stop();
    await db.destroy();
    await chain.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await measureDepositCredit());
