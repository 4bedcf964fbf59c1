import { createConfig, fallback, http, unstable_connector } from 'wagmi';
import { connect, disconnect, getChainId, switchChain } from 'wagmi/actions';
import { injected } from 'wagmi/connectors';
import { bsc } from 'wagmi/chains';
import { classify, WalletError } from './wallet-errors.ts';

/**
 * The wallet connection shared by sign-in, binding and deposits, loaded only when the trader taps a
 * wallet button: wagmi with the injected connector only (EIP-6963 wallets are discovered by wagmi; no
 * wallet SDK is bundled). Chain reads go through the wallet's own RPC first, so the app needs no node.
 */
let config: ReturnType<typeof makeConfig> | null = null;
function makeConfig() {
  // No multicall batching: a read must work on any node the wallet uses, with or without Multicall3.
  return createConfig({ chains: [bsc], connectors: [injected()], transports: { [bsc.id]: fallback([unstable_connector(injected), http()]) }, batch: { multicall: false } });
}

export type WalletConfig = ReturnType<typeof makeConfig>;

/** The wallet to use: one that announced itself (EIP-6963) first, else the injected provider. */
function connectorOf(c: WalletConfig) {
  return c.connectors.find((k) => k.type === 'injected' && k.id !== 'injected') ?? c.connectors.find((k) => k.id === 'injected')!;
}

/** Connects the wallet and switches it to (or adds) BNB Smart Chain; errors are WalletErrors with their message key. */
export async function connectOnBsc(): Promise<{ config: WalletConfig; connector: ReturnType<typeof connectorOf>; address: `0x${string}` }> {
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
      await switchChain(config, { chainId: bsc.id });
    } catch (error) {
      throw new WalletError(classify(error, 'switch'), error);
    }
  }
  return { config, connector, address };
}
