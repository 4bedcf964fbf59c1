import type { Page } from 'playwright-core';
import { createWalletClient, http } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { bsc } from 'viem/chains';

export interface WalletBehaviour {
  chainId?: number;
  /** The wallet cannot switch to BNB Smart Chain, nor add it. */
  refuseSwitch?: boolean;
  /** The trader cancels the signature. */
  cancelSign?: boolean;
  /** A node to send transactions to and read the chain from (anvil): the wallet signs them with the account. */
  rpcUrl?: string;
}

/**
 * An EIP-1193 wallet injected into the page, backed by a viem private-key account in this process:
 * every signature is real (personal_sign), and the server verifies it. It emits chainChanged like a
 * wallet does after a switch.
 */
export async function injectWallet(page: Page, account: PrivateKeyAccount, behaviour: WalletBehaviour = {}) {
  let chain = behaviour.chainId ?? 56;
  const calls: string[] = [];
  await page.exposeFunction('__wallet', async (method: string, params: unknown[]) => {
    calls.push(method);
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return { ok: [account.address] };
      case 'eth_chainId':
        return { ok: `0x${chain.toString(16)}` };
      case 'wallet_requestPermissions':
      case 'wallet_getPermissions':
        return { ok: [{ parentCapability: 'eth_accounts' }] };
      case 'wallet_switchEthereumChain':
        if (behaviour.refuseSwitch) return { error: { code: 4902, message: 'Unrecognized chain ID' } };
        chain = Number.parseInt((params[0] as { chainId: string }).chainId, 16);
        return { ok: null, chainChanged: `0x${chain.toString(16)}` };
      case 'wallet_addEthereumChain':
        if (behaviour.refuseSwitch) return { error: { code: -32603, message: 'This wallet does not support the chain' } };
        return { ok: null };
      case 'personal_sign': {
        if (behaviour.cancelSign) return { error: { code: 4001, message: 'User rejected the request.' } };
        const [data] = params as [`0x${string}`];
        return { ok: await account.signMessage({ message: { raw: data } }) };
      }
      case 'eth_sendTransaction': {
        if (!behaviour.rpcUrl) return { error: { code: 4200, message: 'no chain' } };
        const tx = params[0] as { to: `0x${string}`; data?: `0x${string}`; value?: `0x${string}`; gas?: `0x${string}` };
        const wallet = createWalletClient({ account, chain: { ...bsc, rpcUrls: { default: { http: [behaviour.rpcUrl] } } }, transport: http(behaviour.rpcUrl) });
        try {
          const hash = await wallet.sendTransaction({ to: tx.to, ...(tx.data ? { data: tx.data } : {}), ...(tx.value ? { value: BigInt(tx.value) } : {}), ...(tx.gas ? { gas: BigInt(tx.gas) } : {}) });
          return { ok: hash };
        } catch (e) {
          return { error: { code: -32603, message: String((e as Error).message).slice(0, 200) } };
        }
      }
      default: {
        if (!behaviour.rpcUrl) return { error: { code: 4200, message: `unsupported ${method}` } };
        // Reads (calls, receipts, blocks, gas) go to the node, as a wallet's RPC does.
        const res = await fetch(behaviour.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
        const json = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
        return json.error ? { error: json.error } : { ok: json.result };
      }
    }
  });
  await page.addInitScript(() => {
    const listeners: Record<string, ((x: unknown) => void)[]> = {};
    const emit = (event: string, value: unknown) => {
      for (const f of listeners[event] ?? []) f(value);
    };
    (window as unknown as { ethereum: unknown }).ethereum = {
      isMetaMask: true,
      async request({ method, params }: { method: string; params?: unknown[] }) {
        const answer = await (window as unknown as { __wallet: (m: string, p: unknown[]) => Promise<{ ok?: unknown; error?: { code: number; message: string }; chainChanged?: string }> }).__wallet(
          method,
          params ?? [],
        );
        if (answer.error) throw Object.assign(new Error(answer.error.message), answer.error);
        if (answer.chainChanged) setTimeout(() => emit('chainChanged', answer.chainChanged));
        return answer.ok;
      },
      on(event: string, f: (x: unknown) => void) {
        const list = listeners[event] ?? [];
        listeners[event] = list;
        list.push(f);
      },
      removeListener(event: string, f: (x: unknown) => void) {
        listeners[event] = (listeners[event] ?? []).filter((g) => g !== f);
      },
    };
  });
  return calls;
}
