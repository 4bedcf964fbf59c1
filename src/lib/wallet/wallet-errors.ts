import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';

/** The wallet message keys of docs/product.md §8, shown when each happens. */
export const walletMessages = {
  notConnected: msg`钱包未连接`,
  connectionFailed: msg`钱包连接失败`,
  signatureFailed: msg`签名失败`,
  notSupported: msg`不支持该钱包`,
  notInstalled: msg`未检测到钱包插件，请先安装`,
  nonceFailed: msg`获取签名随机数失败`,
  networkUnsupported: msg`不支持当前网络，请切换到 BNB Smart Chain`,
  userCancelled: msg`用户已取消`,
  wrongWallet: msg`请在钱包中切换到本账户绑定的地址后再签名`,
} satisfies Record<string, MessageDescriptor>;
export type WalletProblem = keyof typeof walletMessages;

/** A failure of the wallet flow with the key of its message. */
export class WalletError extends Error {
  readonly problem: WalletProblem;
  constructor(problem: WalletProblem, cause?: unknown) {
    super(problem, { cause });
    this.problem = problem;
  }
}

/** What a wallet's error means: EIP-1193 codes and the names wagmi and viem give them. */
export function classify(error: unknown, during: 'connect' | 'switch' | 'sign'): WalletProblem {
  const e = error as { code?: number; name?: string; cause?: { code?: number; name?: string } } | null;
  if (during === 'switch') {
    // wagmi reports any failure to add the chain as a rejection: the wallet's own code, deepest in the chain, says which.
    let inner: { code?: number; cause?: unknown } | null = e;
    while (inner?.cause && typeof inner.cause === 'object') inner = inner.cause as { code?: number; cause?: unknown };
    return inner?.code === 4001 ? 'userCancelled' : 'networkUnsupported';
  }
  const code = e?.code ?? e?.cause?.code;
  const name = `${e?.name ?? ''} ${e?.cause?.name ?? ''}`;
  if (code === 4001 || /UserRejected/.test(name)) return 'userCancelled';
  if (/ProviderNotFound|ConnectorNotFound/.test(name)) return 'notInstalled';
  if (code === 4902 || /SwitchChain|ChainNotConfigured|ChainMismatch/.test(name)) return 'networkUnsupported';
  if (code === 4200 || /UnsupportedProviderMethod|MethodNotSupported/.test(name)) return 'notSupported';
  if (/ConnectorNotConnected|ConnectorAccountNotFound/.test(name)) return 'notConnected';
  return during === 'sign' ? 'signatureFailed' : 'connectionFailed';
}
