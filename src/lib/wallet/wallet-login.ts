import { signMessage } from 'wagmi/actions';
import type { LoginData, PublicUser } from '../../../contract/auth.ts';
import { loadApi } from '../lazy-api.ts';
import { connectOnBsc } from './wallet-connect.ts';
import { classify, WalletError } from './wallet-errors.ts';

/**
 * Wallet sign-in: connect on BNB Smart Chain, ask the server for its sign-in message, sign
 * it, verify.
 */
async function signForServer(): Promise<{ address: `0x${string}`; signature: `0x${string}`; api: Awaited<ReturnType<typeof loadApi>>['api'] }> {
  const { config, connector, address } = await connectOnBsc();
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

/**
 * A wallet-only account's proof for a password change (/my/password): the bound wallet signs the
 * server's single-use statement (EIP-191 personal_sign); answers the signature to send with the change.
 */
export async function walletPasswordProof(bound: string): Promise<`0x${string}`> {
  const { config, connector, address } = await connectOnBsc();
  if (bound && address.toLowerCase() !== bound.toLowerCase()) throw new WalletError('wrongWallet');
  const { api } = await loadApi();
  let message: string;
  try {
    message = (await api.userPaymentNonce(undefined, { show: false })).message;
  } catch (error) {
    throw new WalletError('nonceFailed', error);
  }
  try {
    return await signMessage(config, { account: address, message, connector });
  } catch (error) {
    throw new WalletError(classify(error, 'sign'), error);
  }
}
