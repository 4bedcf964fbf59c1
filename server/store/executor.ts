import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * What a store function runs on: the database or a transaction the caller opened (a Transaction is a
 * Kysely), so that the caller keeps its transaction and its locks exactly where they were.
 */
export type Executor = Kysely<Database>;

/** Which of the live and simulated accounts a query keeps: the simulated ones' ids (exchanges/catalog.ts) and which side. */
export interface ModeFilter {
  simulatedIds: readonly number[];
  simulation: boolean;
}
