import { createConfig, http } from 'wagmi';
import { connect, disconnect, getChainId, signMessage, switchChain } from 'wagmi/actions';
import { injected } from 'wagmi/connectors';
import { bsc } from 'wagmi/chains';
import type { LoginData, PublicUser } from '../../../contract/schemas.ts';
import { loadApi } from '../../lib/lazy-api.ts';
import { classify, WalletError } from './wallet-errors.ts';

/**
 * Wallet sign-in (issue 5), loaded only when the trader taps the wallet button: wagmi with the
 * injected connector only (EIP-6963 wallets are discovered by wagmi; no wallet SDK is bundled).
 * Connect, switch to (or add) BNB Smart Chain, ask the server for its sign-in message, sign it, verify.
 */
let config: ReturnType<typeof makeConfig> | null = null;
function makeConfig() {
  return createConfig({ chains: [bsc], connectors: [injected()], transports: { [bsc.id]: http() } });
}

/** The wallet to use: one that announced itself (EIP-6963) first, else the injected provider. */
function connectorOf(c: NonNullable<typeof config>) {
  return c.connectors.find((k) => k.type === 'injected' && k.id !== 'injected') ?? c.connectors.find((k) => k.id === 'injected')!;
}

/** Connects the wallet on chain 56 and signs the server's sign-in message for its address. */
async function signForServer(): Promise<{ address: `0x${string}`; signature: `0x${string}`; api: Awaited<ReturnType<typeof loadApi>>['api'] }> {
  config ??= makeConfig();
  const connector = connectorOf(config);
  let address: `0x${string}`;
  try {
    if (config.state.status === 'connected') await disconnect(config);
    const connected = await connect(config, { connector });
    address = connected.accounts[0]!;
  } catch (error) {
    throw new WalletError(classify(error, 'connect'), error);
  }
  if (getChainId(config) !== bsc.id || (await connector.getChainId()) !== bsc.id) {
    try {
      await switchChain(config, { chainId: bsc.id }); // adds the chain to the wallet when it does not know it
    } catch (error) {
      throw new WalletError(classify(error, 'switch'), error);
    }
  }
  const { api } = await loadApi();
  let message: string;
  try {
    message = (await api.loginNonce({ address }, { show: false })).message;
  } catch (error) {
    throw new WalletError('nonceFailed', error);
  }
  try {
    return { address, signature: await signMessage(config, { account: address, message, connector }), api };
  } catch (error) {
    throw new WalletError(classify(error, 'sign'), error);
  }
}

/** Logs in with the wallet (the first login creates the account, with the referrer when given). */
export async function walletSignIn(referrer?: string): Promise<LoginData> {
  const { address, signature, api } = await signForServer();
  return api.loginVerify({ address, signature, terminal: 4, ...(referrer ? { referrer } : {}) }, { show: false });
}

/** Binds the wallet to the logged-in account (/my/bind/wallet). */
export async function walletBind(): Promise<PublicUser> {
  const { address, signature, api } = await signForServer();
  return api.userBind({ address, signature }, { show: false });
}
