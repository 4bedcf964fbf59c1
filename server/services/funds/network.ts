import { fail } from '../../errors.ts';

/** The one network deposits and withdrawals use: BNB Smart Chain (chain 56), by any of its usual names. */
export function checkNetwork(network: string | undefined): 'BSC' {
  if (network === undefined || /^(bsc|bep20|bep-20|bnb)$/i.test(network)) return 'BSC';
  throw fail('NetworkUnsupported');
}
