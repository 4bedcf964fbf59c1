import { useEffect, useState, type Dispatch, type FormEvent, type SetStateAction } from 'react';
import { useNavigate } from '@tanstack/react-router';
import type { BotCreateInput, BuiltBotType, ParamsInputOf } from '../../../contract/bots.ts';
import { write } from '../../shared/query.ts';
import { ownParams, type BotCopy } from './bot-copy.ts';
import { useCopiedPair } from './components/copied-from.tsx';
import type { useBotForm } from './use-bot-form.ts';
import type { BotTarget } from './use-bot-target.ts';

/**
 * A type's form values: from a copy at the start (a ranked bot, a clone; its pair chosen too), else
 * `initial`; then from the bot being edited, once it loads. `fromParams` is the type's own reading.
 */
export function useBotValues<T extends BuiltBotType, V>(type: T, target: BotTarget, copy: BotCopy<ParamsInputOf<T>> | undefined, fromParams: (params: ParamsInputOf<T>) => V, initial: () => V) {
  const [values, setValues] = useState<V>(() => (copy?.params ? fromParams(copy.params) : initial()));
  useCopiedPair(target, copy);
  const bot = target.bot.data;
  // The bot being edited fills the form once (its answer changes only when it is fetched again).
  // biome-ignore lint/correctness/useExhaustiveDependencies: fromParams is the type's pure reading, a new function each render.
  useEffect(() => {
    const own = ownParams(bot, type);
    if (own) setValues(fromParams(own));
  }, [bot, type]);
  return [values, setValues] as const;
}

/**
 * A text field's props bound to the form: its name, its value, its change, and its leave and problem
 * (useBotForm's blur and err), so a field says only its label and kind.
 */
export function useFieldBinder<V, F extends keyof V & string>(values: V, setValues: Dispatch<SetStateAction<V>>, form: { err: (field: F) => string | undefined; blur: (field: F) => () => void }) {
  return (field: F) => ({
    name: field,
    value: String(values[field]),
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value })),
    onBlur: form.blur(field),
    error: form.err(field),
  });
}

/**
 * The form's submit: once its checks pass (and the bot is not running), creates a bot of the type on the
 * chosen exchange and pair, or updates the one edited, with the trader's name and the type's `params`,
 * then opens its detail.
 */
export function useSubmitBot<T extends BuiltBotType>(type: T, id: string | undefined, target: BotTarget, form: Pick<ReturnType<typeof useBotForm>, 'save' | 'invalid'>) {
  const navigate = useNavigate();
  const { market, exchangeId, symbol, name, running } = target;
  return (params: () => ParamsInputOf<T>) => (event: FormEvent) => {
    event.preventDefault();
    void form.save(market !== undefined && exchangeId !== null && !form.invalid && !running, async () => {
      const body = { ...(name.trim() ? { name: name.trim() } : {}), params: params() };
      const saved = id ? await write('userBotUpdate', { id }, body) : await write('userBotCreate', { type, exchangeId: exchangeId!, symbol, ...body } as BotCreateInput);
      await navigate({ to: '/strategy/detail/$id', params: { id: saved.id }, replace: true });
    });
  };
}
