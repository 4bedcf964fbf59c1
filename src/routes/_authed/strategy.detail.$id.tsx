import { createFileRoute } from '@tanstack/react-router';
import { DetailRoute } from '../../features/bots/components/bot-routes.tsx';
import { loadArea } from '../../lib/i18n.ts';

// The types' own parts of the detail (a grid's levels, a custom bot's rules) load with its catalog, so the screen shows in one go.
export const Route = createFileRoute('/_authed/strategy/detail/$id')({
  loader: () => Promise.all([loadArea('bots'), import('../../features/bots/strategies/index.ts').then((r) => r.preloadDetailParts())]),
  component: DetailRoute,
});
