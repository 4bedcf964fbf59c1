import { parseUnits, type Address, type Hex } from 'viem';
import { readContract, waitForTransactionReceipt, writeContract } from 'wagmi/actions';
import { bsc } from 'wagmi/chains';
import { depositAbi, tokenAbi } from '../../../contract/chain-abi.ts';
import type { DepositInfo } from '../../../contract/schemas.ts';
import { connectOnBsc } from './wallet-connect.ts';
import { classify, WalletError } from './wallet-errors.ts';

export type DepositStep = 'connect' | 'approve' | 'deposit';

/**
 * Pays a deposit from the connected wallet (issue 5 §3): approve the deposit contract for the amount
 * when its allowance is short, then deposit(amount, UID), so the server knows whose money it is.
 * Answers the deposit transaction's hash, which the screen reports to the server.
 */
export async function walletDeposit(info: Pick<DepositInfo, 'token' | 'contract' | 'decimals' | 'memo'>, amount: string, onStep: (step: DepositStep) => void): Promise<Hex> {
  onStep('connect');
  const { config, connector, address } = await connectOnBsc();
  const token = info.token as Address;
  const contract = info.contract as Address;
  const value = parseUnits(amount, info.decimals);
  const send = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw new WalletError(classify(error, 'sign'), error);
    }
  };
  const allowance = await send(() => readContract(config, { address: token, abi: tokenAbi, functionName: 'allowance', args: [address, contract], chainId: bsc.id }));
  if (allowance < value) {
    onStep('approve');
    const approval = await send(() => writeContract(config, { address: token, abi: tokenAbi, functionName: 'approve', args: [contract, value], account: address, connector, chainId: bsc.id }));
    await send(() => waitForTransactionReceipt(config, { hash: approval, chainId: bsc.id, pollingInterval: 1000 }));
  }
  onStep('deposit');
  return send(() => writeContract(config, { address: contract, abi: depositAbi, functionName: 'deposit', args: [value, BigInt(info.memo)], account: address, connector, chainId: bsc.id }));
}
