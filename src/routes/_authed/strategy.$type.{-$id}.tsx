import { createFileRoute, redirect } from '@tanstack/react-router';
import { FormRoute } from '../../features/bots/components/bot-routes.tsx';
import { loadArea } from '../../lib/i18n.ts';

/**
 * /strategy/martin, /strategy/grid/12, ...: a bot type's create or edit screen, from the bots' registry
 * (loaded here, not imported: the route tree ships in the entry). Its screen loads with the catalog, so it
 * renders at once; a type the registry does not know goes home, as any unknown path does. The static
 * siblings (detail, action, logs, size, ai, bill) win over this dynamic segment.
 */
export const Route = createFileRoute('/_authed/strategy/$type/{-$id}')({
  loader: ({ params }) =>
    Promise.all([loadArea('bots'), import('../../features/bots/strategies/index.ts').then((r) => r.preloadForm(params.type))]).then(([, known]) => {
      if (!known) throw redirect({ to: '/', replace: true });
    }),
  component: FormRoute,
});
