import { describe, expect, it } from 'vitest';
import { createMemoryHistory, createRouter } from '@tanstack/react-router';
import { routeTree } from '../routeTree.gen.ts';
import { botTypeList } from '../shared/bot-types.ts';

const router = createRouter({ routeTree, history: createMemoryHistory() });
const last = (path: string) => router.matchRoutes(path).at(-1);

/** One route for every bot type's form; the bot screens beside it keep their own. */
describe('the strategy routes', () => {
  it('opens each type form at its old URL, new or by id', () => {
    for (const type of botTypeList) {
      expect(last(`/strategy/${type}`)).toMatchObject({ routeId: '/_authed/strategy/$type/{-$id}', params: { type } });
      expect(last(`/strategy/${type}/12`)).toMatchObject({ routeId: '/_authed/strategy/$type/{-$id}', params: { type, id: '12' } });
    }
  });

  it('still opens the detail, the logs, the size calculator, the AI, the bill and the list on their own screens', () => {
    expect(last('/strategy/detail/5')?.routeId).toBe('/_authed/strategy/detail/$id');
    expect(last('/strategy/action/5')?.routeId).toBe('/_authed/strategy/action/$id');
    expect(last('/strategy/logs')?.routeId).toBe('/_authed/strategy/logs');
    expect(last('/strategy/size')?.routeId).toBe('/_authed/strategy/size');
    expect(last('/strategy/bill')?.routeId).toBe('/_authed/strategy/bill');
    expect(last('/strategy/ai')?.routeId).toBe('/_authed/strategy/ai/{-$id}');
    expect(last('/strategy/ai/7')?.routeId).toBe('/_authed/strategy/ai/{-$id}');
    expect(last('/strategy')?.routeId).toBe('/_authed/strategy/');
  });
});
