import { sql } from 'kysely';

/**
 * A bot (its columns under `alias`, or unqualified) that holds a position, by its stored state: buys in
 * its `fills` (martin, DCA, custom) or base on sell `orders` (a grid). Every type's stored state keeps
 * its position in one of the two (strategy/kit.ts holdsPosition reads them the same way, and strategy/kit.test.ts holds every kit to it), so the bill,
 * the rank, the snapshots and the open positions ask it in SQL without naming a type.
 */
export const holdsPositionSql = (alias = '') => {
  const col = (name: string) => sql.raw(alias ? `${alias}.${name}` : name);
  return sql<boolean>`((jsonb_typeof(${col('state')}->'orders') = 'array' and exists (select 1 from jsonb_array_elements(${col('state')}->'orders') o where o->>'side' = 'sell'))
    or (jsonb_typeof(${col('state')}->'fills') = 'array' and jsonb_array_length(${col('state')}->'fills') > 0))`;
};
