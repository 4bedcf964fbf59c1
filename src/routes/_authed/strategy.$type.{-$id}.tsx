import { createFileRoute } from '@tanstack/react-router';
import { FormRoute } from '../../features/bots/components/bot-routes.tsx';
import { loadArea } from '../../lib/i18n.ts';

/**
 * /strategy/martin, /strategy/grid/12, ...: a bot type's create or edit screen, from the bots' registry; a
 * type it does not know goes home, as any unknown path does. The static siblings (detail, action, logs,
 * size, ai, bill) win over this dynamic segment.
 */
export const Route = createFileRoute('/_authed/strategy/$type/{-$id}')({ loader: () => loadArea('bots'), component: FormRoute });
