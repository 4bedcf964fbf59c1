import { useEffect, useState } from 'react';
import type { BuiltBotType } from '../../../contract/bots.ts';
import { getBotTypes } from '../../lib/api.ts';

/** Whether this server rests a bot type's orders on the exchange as limit orders (RESTING_ORDERS); false until known. */
export function useResting(type: BuiltBotType): boolean {
  const [resting, setResting] = useState(false);
  useEffect(() => {
    let live = true;
    getBotTypes()
      .then((types) => {
        if (live) setResting(types.some((t) => t.code === type && t.resting === true));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [type]);
  return resting;
}
