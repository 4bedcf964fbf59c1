import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { tokenAbi } from '../../contract/chain-abi.ts';
import { readConfig } from '../config.ts';
import { openTestApp, registerPayload, type TestApp } from '../testing/test-support.ts';
import { openChain } from './chain-side.ts';
import { FAUCET, startDevChain, type DevChain } from './dev-chain.ts';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/**
 * The demo's chain (DEV_CHAIN=1) kept under DATA_DIR on a fixed port: a restart finds the same chain,
 * contracts and balances, so deposit addresses and records stay good; and its faucet, which sends a
 * trader test USDT and BNB, is there only on that chain.
 */
describe('the dev chain of a demo', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dev-chain-'));
  const chains: DevChain[] = [];
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
    for (const c of chains) await c.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps its chain, contracts and balances across a restart', async () => {
    const port = await freePort();
    const first = await startDevChain({ stateDir: dir, port });
    chains.push(first);
    const trader = privateKeyToAccount(generatePrivateKey()).address;
    await first.mint(trader, '25');
    const height = await first.public.getBlockNumber();
    await first.stop();
    const again = await startDevChain({ stateDir: dir, port });
    chains.push(again);
    expect(again.url).toBe(first.url);
    expect([again.usdt, again.deposit, again.hotWalletKey]).toEqual([first.usdt, first.deposit, first.hotWalletKey]);
    expect(await again.public.getBlockNumber()).toBeGreaterThanOrEqual(height);
    const balance = await again.public.readContract({ address: again.usdt, abi: tokenAbi, functionName: 'balanceOf', args: [trader] });
    expect(formatUnits(balance, 18)).toBe('25');
  });

  it('sends test USDT and BNB to a trader’s wallet, a few times an hour, only on the dev chain', async () => {
    const chain = chains[chains.length - 1]!;
    const cfg = { ...readConfig({}).chain, rpcUrl: chain.url, usdt: chain.usdt, deposit: chain.deposit, hotWalletKey: chain.hotWalletKey, confirmations: 1, pollMs: 50, startBlock: 1 };
    t = await openTestApp('pglite', { chain: (db) => openChain(db, cfg)!, faucet: chain.faucet });
    const reg = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const auth = { authorization: `Bearer ${reg.json().data.token}`, lang: 'en' };
    const ask = (address: string, app = t!.app) => app.inject({ method: 'POST', url: '/api/user/faucet', payload: { address }, headers: auth }).then((r) => r.json());
    expect((await t.app.inject({ url: '/api/user/depositInfo', headers: auth })).json().data.faucet).toBe(true);
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    expect(await ask(wallet)).toEqual({ code: 1, msg: expect.any(String), data: { address: wallet, usdt: FAUCET.usdt, bnb: FAUCET.bnb } });
    const usdt = await chain.public.readContract({ address: chain.usdt, abi: tokenAbi, functionName: 'balanceOf', args: [wallet] });
    expect(formatUnits(usdt, 18)).toBe(FAUCET.usdt);
    expect(formatUnits(await chain.public.getBalance({ address: wallet }), 18)).toBe(FAUCET.bnb);
    expect((await ask('0x1234')).code).toBe(Code.InvalidAddress);
    for (let i = 0; i < 4; i++) expect((await ask(wallet)).code).toBe(1);
    expect((await ask(wallet)).code).toBe(Code.RateLimited);
    // A server on a real chain (no dev chain) has no faucet.
    const real = await t.another();
    const other = (await real.inject({ method: 'POST', url: '/api/user/faucet', payload: { address: wallet }, headers: auth })).json();
    expect(other.code).not.toBe(1);
  });
});
