import type { ParamsInputOf } from '../../strategy/params.ts';
import type { BotType } from '../../strategy/kit.ts';
import type { StoredKitState } from '../../strategy/kit-types.ts';

/**
 * What every type's parameters hold alike: the investment, the budget every screen and figure divides
 * by. Picked from the union of the types' parameter schemas (strategy/<type>/params.ts), so a type
 * without it fails to compile here; each kit's `stored` keeps it as the form sent it.
 */
export type CommonParams = Pick<ParamsInputOf<BotType>, 'investment'>;

/** What every type's stored state holds alike: its phase and the order in flight (null when none); each kit's `encode` is held to it. */
export type CommonState = StoredKitState;

/** The order a bot has in flight, as its stored state keeps it. */
export type StoredPending = CommonState['pending'];

/**
 * What the services read of a bot row's JSON, typed once here instead of a cast in each of them. A row
 * written by hand (a test's `{}`) reads as it did before: absent fields are undefined.
 */
export interface BotFields {
  investment: CommonParams['investment'];
  /** The order in flight; null (or absent in a hand-written row) when none. */
  pending: StoredPending | undefined;
  phase: CommonState['phase'];
}

/** A bot row (or the part of one read) with its JSON read through the shapes above. */
export type WithFields<R> = R & { fields: BotFields };

/** Reads a bot row's parameters and stored state once, by the shapes every type shares. */
export function fieldsOf(row: { params: unknown; state: unknown }): BotFields {
  const state = objectOr(row.state) as CommonState;
  return { ...paramFieldsOf(row.params), pending: state.pending, phase: state.phase };
}

/** What the services read of stored parameters alone (a read without the state). */
export const paramFieldsOf = (params: unknown): Pick<BotFields, 'investment'> => ({ investment: (objectOr(params) as CommonParams).investment });

/** The JSON itself when it is an object, else an empty one: reading every row once must not throw on one a reader never looks into. */
const objectOr = (json: unknown): object => (typeof json === 'object' && json !== null ? json : {});

/** The rows with their fields read. */
export const withFields = <R extends { params: unknown; state: unknown }>(rows: readonly R[]): WithFields<R>[] => rows.map((r) => ({ ...r, fields: fieldsOf(r) }));

/** A finished bot's stored state (phase 'done', repeat off) as it waits to open a new cycle: what starting it again stores. */
export const restartedState = (stored: unknown): unknown => ({ ...(stored as CommonState), phase: 'waiting' });
