import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  parseUnits,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type TestClient,
  type WalletClient,
  type Transport,
  type Account,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { bsc } from 'viem/chains';
import { compileContracts } from './compile.ts';

/**
 * A real local chain with chain id 56 (anvil from npm) and the project's contracts on it: a test USDT
 * and QuantDeposit. For the tests and for demos (DEV_CHAIN=1); production points CHAIN_RPC_URL at BSC.
 */
export interface DevChain {
  url: string;
  chain: Chain;
  usdt: Address;
  deposit: Address;
  /** Deploys and owns the contracts; holds gas. */
  deployerKey: Hex;
  /** The hot wallet: gas and USDT to send withdrawals. */
  hotWalletKey: Hex;
  public: PublicClient;
  test: TestClient<'anvil'>;
  /** A funded wallet client for a new key (gas; `usdt` test tokens when given). */
  trader(usdt?: string): Promise<{ key: Hex; address: Address; wallet: WalletClient<Transport, Chain, Account> }>;
  /** Mints test USDT. */
  mint(to: Address, amount: string): Promise<void>;
  /** The faucet of a demo: test USDT minted and test BNB (gas) added to a wallet. */
  faucet(to: Address): Promise<{ usdt: string; bnb: string }>;
  mine(blocks?: number): Promise<void>;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);

function anvilBinary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const pkg = require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`);
  return join(dirname(pkg), 'bin', 'anvil');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited with ${child.exitCode}`);
    try {
      const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) });
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('anvil did not start within 15 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What a kept dev chain needs to find its contracts and keys again after a restart. */
interface KeptChain {
  deployerKey: Hex;
  hotWalletKey: Hex;
  usdt: Address;
  deposit: Address;
}

/** What the faucet gives a wallet each time. */
export const FAUCET = { usdt: '1000', bnb: '1' } as const;

/**
 * Starts anvil on chain 56 (automine unless `blockTime` seconds), deploys the contracts, funds the hot
 * wallet. With `stateDir` (a demo's DATA_DIR) the chain is kept: its state is written to
 * stateDir/dev-chain-state.json every 10 s and on exit, and its keys and contract addresses to
 * stateDir/dev-chain.json, so a restart finds the same chain, deposit contract and balances, and the
 * records of deposits still point at real transactions; `port`, a fixed port (its address stays too).
 */
export async function startDevChain(options: { blockTime?: number; depositMinimum?: string; hotWalletUsdt?: string; stateDir?: string; port?: number } = {}): Promise<DevChain> {
  const port = options.port ?? (await freePort());
  const args = ['--chain-id', '56', '--port', String(port), '--host', '127.0.0.1', '--silent', '--accounts', '0'];
  if (options.blockTime) args.push('--block-time', String(options.blockTime));
  const statePath = options.stateDir ? join(options.stateDir, 'dev-chain-state.json') : undefined;
  const keptPath = options.stateDir ? join(options.stateDir, 'dev-chain.json') : undefined;
  if (statePath) args.push('--state', statePath, '--state-interval', '10');
  const child = spawn(anvilBinary(), args, { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitReady(url, child);
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  const chain: Chain = { ...bsc, rpcUrls: { default: { http: [url] } } };
  const transport = http(url);
  const pub = createPublicClient({ chain, transport, pollingInterval: 50 }) as PublicClient;
  const test = createTestClient({ chain, transport, mode: 'anvil' });
  const fund = (address: Address) => test.setBalance({ address, value: parseUnits('100', 18) });
  const walletOf = (key: Hex) => createWalletClient({ chain, transport, account: privateKeyToAccount(key) });
  const compiled = compileContracts();
  // A kept chain whose contracts are still there (the state file loaded) is used as it is.
  const kept = keptPath ? await keptChain(keptPath, pub) : undefined;
  const deployerKey = kept?.deployerKey ?? generatePrivateKey();
  const hotWalletKey = kept?.hotWalletKey ?? generatePrivateKey();
  const deployer = walletOf(deployerKey);
  const deployed = async (name: 'TestUSDT' | 'QuantDeposit', args: readonly unknown[]) => {
    const hash = await deployer.deployContract({ abi: compiled[name].abi, bytecode: compiled[name].bytecode, args });
    const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (!receipt.contractAddress) throw new Error(`${name} was not deployed`);
    return receipt.contractAddress;
  };
  let usdt: Address;
  let deposit: Address;
  const mint = async (to: Address, amount: string) => {
    const hash = await deployer.writeContract({ address: usdt, abi: compiled.TestUSDT.abi, functionName: 'mint', args: [to, parseUnits(amount, 18)] });
    await pub.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  };
  if (kept) {
    ({ usdt, deposit } = kept);
  } else {
    await fund(deployer.account.address);
    await fund(privateKeyToAccount(hotWalletKey).address);
    usdt = await deployed('TestUSDT', []);
    deposit = await deployed('QuantDeposit', [usdt, parseUnits(options.depositMinimum ?? '10', 18)]);
    await mint(privateKeyToAccount(hotWalletKey).address, options.hotWalletUsdt ?? '100000');
    if (keptPath) {
      await mkdir(dirname(keptPath), { recursive: true });
      await writeFile(keptPath, JSON.stringify({ deployerKey, hotWalletKey, usdt, deposit } satisfies KeptChain), { mode: 0o600 });
    }
  }
  return {
    url,
    chain,
    usdt,
    deposit,
    deployerKey,
    hotWalletKey,
    public: pub,
    test,
    async trader(amount) {
      const key = generatePrivateKey();
      const wallet = walletOf(key);
      await fund(wallet.account.address);
      if (amount) await mint(wallet.account.address, amount);
      return { key, address: wallet.account.address, wallet };
    },
    mint,
    async faucet(to) {
      await mint(to, FAUCET.usdt);
      const gas = await pub.getBalance({ address: to });
      await test.setBalance({ address: to, value: gas + parseUnits(FAUCET.bnb, 18) });
      return { ...FAUCET };
    },
    mine: (blocks = 1) => test.mine({ blocks }),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** The kept chain's keys and contracts, when the file is there and the contracts still have code on the chain. */
async function keptChain(path: string, pub: PublicClient): Promise<KeptChain | undefined> {
  let kept: KeptChain;
  try {
    kept = JSON.parse(await readFile(path, 'utf8')) as KeptChain;
  } catch {
    return undefined;
  }
  const [usdtCode, depositCode] = await Promise.all([pub.getCode({ address: kept.usdt }), pub.getCode({ address: kept.deposit })]);
  return usdtCode && usdtCode !== '0x' && depositCode && depositCode !== '0x' ? kept : undefined;
}
