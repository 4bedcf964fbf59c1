import { useState } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import { errorText } from '../../lib/http.ts';

/**
 * The create and edit screens' form state: a field's problem shows once it was left or the form was
 * sent; saving runs once at a time and shows the server's refusal.
 */
export function useBotForm<F extends string>(problems: Partial<Record<F, MessageDescriptor>>) {
  const { i18n } = useLingui();
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const err = (field: F) => {
    const problem = problems[field];
    return problem && (submitted || touched.has(field)) ? i18n._(problem) : undefined;
  };
  const blur = (field: F) => () => setTouched((s) => new Set(s).add(field));
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
