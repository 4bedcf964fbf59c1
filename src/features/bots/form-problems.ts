import type { MessageDescriptor } from '@lingui/core';

/**
 * A field's problem: what to say under it, and the fields it is about: its own, and those it is checked
 * against (a grid's upper price against its lower one).
 */
export interface FieldProblem<F extends string> {
  message: MessageDescriptor;
  fields: readonly F[];
}
export type FieldProblems<F extends string> = Partial<Record<F, FieldProblem<F>>>;

/**
 * The problems the trader sees: all of them once the form was sent; before that, a problem once the
 * trader has left one of the fields it is about. An unvisited field's own problem (an empty required
 * field) waits for the submit; a grid's upper price below its lower one shows as soon as either is left.
 */
export function shownProblems<F extends string>(problems: FieldProblems<F>, left: ReadonlySet<F>, submitted: boolean): Partial<Record<F, MessageDescriptor>> {
  const out: Partial<Record<F, MessageDescriptor>> = {};
  for (const [field, problem] of Object.entries(problems) as [F, FieldProblem<F> | undefined][]) {
    if (problem && (submitted || problem.fields.some((f) => left.has(f)))) out[field] = problem.message;
  }
  return out;
}
