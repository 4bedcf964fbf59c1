import { getExchanges } from '../../lib/api.ts';
import { useResource } from '../../lib/use-resource.ts';

/** An exchange's display name from its code ("paper" -> "Paper"), from the 5-minute exchange cache; the code until it loads. */
export function useExchangeNames(): (code: string) => string {
  const { data } = useResource(() => getExchanges());
  return (code) => data?.exchanges.find((e) => e.code === code)?.name ?? code;
}
