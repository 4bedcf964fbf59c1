import type { ApiBinding, ExchangeInfo } from '../../../contract/schemas.ts';
import { api, getExchanges } from '../../lib/api.ts';
import { useResource } from '../../lib/use-resource.ts';

export interface ExchangesData {
  exchanges: ExchangeInfo[];
  ips: string[];
  bindings: ApiBinding[];
}

/** The exchange list (cached 5 min), the IPs to whitelist and the user's bindings; null while loading. */
export function useExchanges(): { data: ExchangesData | null; failed: boolean; reload: () => void } {
  return useResource(() => Promise.all([getExchanges(), api.userApi({})]).then(([list, bindings]) => ({ exchanges: list.exchanges, ips: list.ips, bindings })));
}
