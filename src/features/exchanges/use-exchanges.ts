import { useCallback, useEffect, useState } from 'react';
import type { ApiBinding, ExchangeInfo } from '../../../contract/schemas.ts';
import { api, getExchanges } from '../../lib/api.ts';

export interface ExchangesData {
  exchanges: ExchangeInfo[];
  ips: string[];
  bindings: ApiBinding[];
}

/** The exchange list (cached 5 min), the IPs to whitelist and the user's bindings; null while loading. */
export function useExchanges(): { data: ExchangesData | null; failed: boolean; reload: () => void } {
  const [data, setData] = useState<ExchangesData | null>(null);
  const [failed, setFailed] = useState(false);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setFailed(false);
    Promise.all([getExchanges(), api.userApi({})]).then(
      ([list, bindings]) => live && setData({ exchanges: list.exchanges, ips: list.ips, bindings }),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [round]);
  return { data, failed, reload: useCallback(() => setRound((r) => r + 1), []) };
}
