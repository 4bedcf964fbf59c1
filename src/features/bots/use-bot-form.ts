import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { errorText } from '../../lib/http.ts';
import { shownProblems, type FieldProblems } from './form-problems.ts';

/**
 * The create and edit screens' form state: a field's problem shows once the trader has left it (or a
 * field it is checked against), or sent the form; saving runs once at a time and shows the server's refusal.
 */
export function useBotForm<F extends string>(problems: FieldProblems<F>) {
  const { i18n } = useLingui();
  const [left, setLeft] = useState<ReadonlySet<F>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const shown = shownProblems(problems, left, submitted);
  const err = (field: F) => {
    const problem = shown[field];
    return problem ? i18n._(problem) : undefined;
  };
  const blur = (field: F) => () => setLeft((s) => (s.has(field) ? s : new Set(s).add(field)));
  /** Marks the form sent; when `ready`, runs `work` (unless a save is under way) and shows its failure. */
  const save = async (ready: boolean, work: () => Promise<void>) => {
    setSubmitted(true);
    setFailure('');
    if (!ready || busy) return;
    setBusy(true);
    try {
      await work();
    } catch (e) {
      setFailure(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return { err, blur, save, submitted, failure, busy, invalid: Object.keys(problems).length > 0 };
}
