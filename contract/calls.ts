/**
 * Every call of the API, one definition each (contract/call.ts `Call`): docs/product.md §7's calls plus
 * ours (`ourCalls`), grouped by area in the files imported below. The server registers and validates
 * them, the OpenAPI document and the fuzzer read them, and the PWA takes their types (`import type`)
 * and, at run time, their routes without zod (`virtual:contract-calls`, built from `routesOf()`).
 */
import type { z } from 'zod';
import { accountCalls } from './account.ts';
import { alertCalls } from './alerts.ts';
import { authCalls } from './auth.ts';
import { botCalls } from './bots.ts';
import { routeKeys, type Call, type CallRoute, type RouteOf } from './call.ts';
import { communityCalls } from './community.ts';
import { exchangeCalls } from './exchanges.ts';
import { fundCalls } from './funds.ts';
import { marketCalls } from './market.ts';
import { noticeCalls } from './notices.ts';
import { returnCalls } from './returns.ts';
import { strategyCalls } from './strategy.ts';

export const calls = {
  ...authCalls,
  ...accountCalls,
  ...marketCalls,
  ...exchangeCalls,
  ...botCalls,
  ...returnCalls,
  ...fundCalls,
  ...communityCalls,
  ...noticeCalls,
  ...alertCalls,
  ...strategyCalls,
} as const satisfies Record<string, Call>;

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type { Method } from './call.ts';

type Part<N extends CallName, K extends string> = Calls[N] extends Record<K, z.ZodType> ? z.input<Calls[N][K]> : undefined;
/** What the PWA sends: the JSON body, the query (as strings) and the path params of a call. */
export type BodyOf<N extends CallName> = Part<N, 'body'>;
export type QueryOf<N extends CallName> = Part<N, 'query'>;
export type ParamsOf<N extends CallName> = Part<N, 'params'>;
/** The same parts as the server has them once checked (query numbers parsed). */
export type CheckedOf<N extends CallName, K extends 'body' | 'query' | 'params'> = Calls[N] extends Record<K, z.ZodType> ? z.output<Calls[N][K]> : undefined;
/** The `data` of a call's success envelope. */
export type AnswerOf<N extends CallName> = z.output<Calls[N]['answer']>;

/** A write's `changes` that name no call: must be none (the error names them). */
type UnknownChange = { [N in CallName]: Calls[N] extends { changes: readonly (infer C)[] } ? Exclude<C, CallName> : never }[CallName];
const _changesAreCalls: [UnknownChange] extends [never] ? true : UnknownChange = true;
void _changesAreCalls;

/** Each call's route and flags, without its schemas: what the PWA reads at run time. */
export type CallRoutes = { [N in CallName]: RouteOf<Calls[N]> & CallRoute };
export function routesOf(): CallRoutes {
  const route = (spec: Call) => Object.fromEntries(routeKeys.filter((key) => key in spec).map((key) => [key, spec[key]]));
  return Object.fromEntries(Object.entries(calls).map(([name, spec]) => [name, route(spec)])) as unknown as CallRoutes;
}

/** docs/product.md §7 has 45 rows (46 calls: /user/api is GET and POST); these are ours, for screens the spec lists without calls. */
export const ourCalls = [
  'loginLogout',
  'userPassword',
  'noticeList',
  'noticeDetail',
  'noticeRead',
  'strategyBacktest',
  'strategyAiSearch',
  'paperReset',
  'paperSweepDust',
  'marketFutures',
  'userSecurity',
  'userTwoFactorSetup',
  'userTwoFactorEnable',
  'userTwoFactorDisable',
  'userPaymentNonce',
  'strategyAiQueue',
  'loginChallenge',
  'userActions',
  'userPnl',
  'userPortfolio',
  'marketBotRank',
  'userBotWebhook',
  'userBotWebhookReset',
  'userBotSignals',
  'userBotShare',
  'userBotShareSet',
  'userSessions',
  'userSessionEnd',
  'userSessionEndOthers',
  'userFaucet',
  'alertSettings',
  'alertSettingsSet',
  'alertPushKey',
  'alertSubscribe',
  'alertUnsubscribe',
  'alertTest',
  'alertWebhookSet',
  'alertWebhookDelete',
] as const satisfies readonly CallName[];
export const specCallCount = 46;
