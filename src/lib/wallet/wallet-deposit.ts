import { decodeFunctionResult, encodeFunctionData, parseUnits, type Address, type Hex } from 'viem';
import { depositAbi, tokenAbi } from '../../../contract/chain-abi.ts';
import type { DepositInfo } from '../../../contract/funds.ts';
import { connectOnBsc } from './wallet-connect.ts';
import { classify, WalletError } from './wallet-errors.ts';

export type DepositStep = 'connect' | 'approve' | 'deposit';

type Provider = { request(args: { method: string; params?: unknown[] }): Promise<unknown> };

/**
 * Pays a deposit from the connected wallet: approve the deposit contract for the amount
 * when its allowance is short, then deposit(amount, UID), so the server knows whose money it is.
 * Talks to the wallet's EIP-1193 provider directly (its own RPC; only viem's ABI encoding is loaded).
 * Answers the deposit transaction's hash, which the screen reports to the server.
 */
export async function walletDeposit(info: Pick<DepositInfo, 'token' | 'contract' | 'decimals' | 'memo'>, amount: string, onStep: (step: DepositStep) => void): Promise<Hex> {
  onStep('connect');
  const { connector, address } = await connectOnBsc();
  const wallet = (await connector.getProvider()) as Provider;
  const token = info.token as Address;
  const contract = info.contract as Address;
  const value = parseUnits(amount, info.decimals);
  const ask = async <T>(method: string, params: unknown[]): Promise<T> => {
    try {
      return (await wallet.request({ method, params })) as T;
    } catch (error) {
      throw new WalletError(classify(error, 'sign'), error);
    }
  };
  const send = (to: Address, data: Hex) => ask<Hex>('eth_sendTransaction', [{ from: address, to, data }]);

  const allowanceCall = encodeFunctionData({ abi: tokenAbi, functionName: 'allowance', args: [address, contract] });
  const allowance = decodeFunctionResult({ abi: tokenAbi, functionName: 'allowance', data: await ask<Hex>('eth_call', [{ to: token, data: allowanceCall }, 'latest']) });
  if (allowance < value) {
    onStep('approve');
    const approval = await send(token, encodeFunctionData({ abi: tokenAbi, functionName: 'approve', args: [contract, value] }));
    // The deposit spends the allowance: wait until the approval is mined (and did not revert).
    for (;;) {
      const receipt = await ask<{ status: Hex } | null>('eth_getTransactionReceipt', [approval]);
      if (receipt) {
        if (receipt.status !== '0x1') throw new WalletError('signatureFailed');
        break;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  onStep('deposit');
  return send(contract, encodeFunctionData({ abi: depositAbi, functionName: 'deposit', args: [value, BigInt(info.memo)] }));
}
