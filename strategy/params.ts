import type { z } from 'zod';
import { customParamsSchema } from './custom/params.ts';
import { dcaParamsSchema } from './dca/params.ts';
import { dipParamsSchema } from './dip/params.ts';
import { gridParamsSchema } from './grid/params.ts';
import { martinParamsSchema } from './martin/params.ts';

/**
 * The bot types the API knows and each one's parameters as its calls take them: the one list the
 * contract builds its bot calls from (contract/bots.ts). A new type is its folder and one line here
 * (and one in kit.ts, the server's list of what the engine runs).
 */
export const paramsSchemas = {
  martin: martinParamsSchema,
  grid: gridParamsSchema,
  dca: dcaParamsSchema,
  custom: customParamsSchema,
  dip: dipParamsSchema,
} as const;

export type BuiltBotType = keyof typeof paramsSchemas;

/** A bot type's parameters as its form sends them. */
export type ParamsInputOf<T extends BuiltBotType> = z.output<(typeof paramsSchemas)[T]>;
