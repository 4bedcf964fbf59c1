import { useQuery } from '@tanstack/react-query';
import { exchangesQuery } from '../../shared/query.ts';

/** An exchange's display name from its code ("paper" -> "Paper"), from the 5-minute exchange cache; the code until it loads. */
export function useExchangeNames(): (code: string) => string {
  const { data } = useQuery(exchangesQuery);
  return (code) => data?.exchanges.find((e) => e.code === code)?.name ?? code;
}
