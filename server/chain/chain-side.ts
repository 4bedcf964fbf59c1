import { createPublicClient, formatUnits, http, type Address, type Chain, type Hex, type PublicClient } from 'viem';
import { bsc } from 'viem/chains';
import type { ChainConfig } from '../config.ts';
import type { Db } from '../db/connect.ts';
import { fail } from '../errors.ts';
import { depositAbi, tokenAbi } from '../../contract/chain-abi.ts';
import { DepositWatcher } from './watcher.ts';
import { WithdrawalSender, type SenderDuty } from './withdrawal-sender.ts';

/**
 * The server's side of chain 56: the deposit watcher, the withdrawal sender and the facts the screens
 * show (token, contract, minimum, confirmations). Absent when CHAIN_RPC_URL is not configured: the
 * deposit and withdrawal calls then answer ChainUnavailable.
 */
export interface ChainFacts {
  chainId: number;
  usdt: Address;
  deposit: Address;
  decimals: number;
  /** The deposit contract's minimum, USDT. */
  minimum: string;
  confirmations: number;
  withdrawMin: string;
  withdrawFee: string;
  /** The hot wallet's address, or '' when withdrawals are off. */
  hotWallet: string;
}

export interface ChainSide {
  client: PublicClient;
  /** Reads the token's decimals and the contract's minimum once (ThirdPartyError while the RPC is down). */
  facts(): Promise<ChainFacts>;
  watcher(): Promise<DepositWatcher>;
  sender(): Promise<WithdrawalSender | undefined>;
  /** Follows the chain: deposits on every block, withdrawals on every block and on demand. */
  start(): void;
  stop(): Promise<void>;
}

type Log = { error(obj: unknown, msg: string): void };

/** `duty`: with several processes, the one that holds it sends the withdrawals. */
export function openChain(db: Db, cfg: ChainConfig, log?: Log, duty?: SenderDuty): ChainSide | undefined {
  if (!cfg.rpcUrl || !cfg.usdt || !cfg.deposit) return undefined;
  const chain: Chain = { ...bsc, id: cfg.chainId, rpcUrls: { default: { http: [cfg.rpcUrl] } } };
  const client = createPublicClient({ chain, transport: http(cfg.rpcUrl, { timeout: 10_000 }), pollingInterval: cfg.pollMs }) as PublicClient;
  const usdt = cfg.usdt as Address;
  const deposit = cfg.deposit as Address;
  let facts: Promise<ChainFacts> | undefined;
  let watcher: DepositWatcher | undefined;
  let sender: WithdrawalSender | undefined;
  let stopBlocks: (() => void) | undefined;

  const readFacts = async (): Promise<ChainFacts> => {
    const [id, decimals, minimum] = await Promise.all([
      client.getChainId(),
      client.readContract({ address: usdt, abi: tokenAbi, functionName: 'decimals' }),
      client.readContract({ address: deposit, abi: depositAbi, functionName: 'minimum' }),
    ]);
    if (id !== cfg.chainId) throw new Error(`CHAIN_RPC_URL answers chain ${id}, not ${cfg.chainId}`);
    const hotWallet = cfg.hotWalletKey ? (await import('viem/accounts')).privateKeyToAccount(cfg.hotWalletKey as Hex).address : '';
    return {
      chainId: id,
      usdt,
      deposit,
      decimals,
      minimum: formatUnits(minimum, decimals),
      confirmations: cfg.confirmations,
      withdrawMin: cfg.withdrawMin,
      withdrawFee: cfg.withdrawFee,
      hotWallet,
    };
  };
  const side: ChainSide = {
    client,
    facts() {
      facts ??= readFacts().catch((e: unknown) => {
        facts = undefined; // try again on the next call
        log?.error({ err: { message: String((e as Error)?.message ?? e) } }, 'chain 56 is not reachable');
        throw fail('ThirdPartyError');
      });
      return facts;
    },
    async watcher() {
      const f = await side.facts();
      watcher ??= new DepositWatcher(db, client, { usdt, deposit, confirmations: f.confirmations, startBlock: BigInt(cfg.startBlock), decimals: f.decimals }, log);
      return watcher;
    },
    async sender() {
      if (!cfg.hotWalletKey) return undefined;
      const f = await side.facts();
      sender ??= new WithdrawalSender(db, client, { usdt, decimals: f.decimals, chain, hotWalletKey: cfg.hotWalletKey as Hex, confirmations: f.confirmations }, log, duty);
      return sender;
    },
    start() {
      stopBlocks = client.watchBlockNumber({
        emitOnBegin: true,
        emitMissed: false,
        pollingInterval: cfg.pollMs,
        onError: () => undefined,
        onBlockNumber: () => {
          void side
            .watcher()
            .then((w) => w.follow())
            .catch(() => undefined);
          void side
            .sender()
            .then((s) => s?.kick())
            .catch(() => undefined);
        },
      });
    },
    async stop() {
      stopBlocks?.();
      await Promise.all([watcher?.stop(), sender?.idle()]);
    },
  };
  return side;
}
