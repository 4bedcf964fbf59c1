import type { ApiBinding } from '../../../contract/exchanges.ts';
import type { ExchangeInfo } from '../../../contract/market.ts';
import { useQuery } from '@tanstack/react-query';
import { call, exchangesQuery, failed } from '../../shared/query.ts';

export interface ExchangesData {
  exchanges: ExchangeInfo[];
  ips: string[];
  bindings: ApiBinding[];
}

/** The exchange list (cached 5 min), the IPs to whitelist and the user's bindings; null while loading. */
export function useExchanges(): { data: ExchangesData | null; failed: boolean; reload: () => void } {
  const list = useQuery(exchangesQuery);
  const bindings = useQuery(call('userApi', {}));
  const data = list.data && bindings.data ? { exchanges: list.data.exchanges, ips: list.data.ips, bindings: bindings.data } : null;
  return {
    data,
    failed: failed(list) || failed(bindings),
    reload: () => {
      void list.refetch();
      void bindings.refetch();
    },
  };
}
