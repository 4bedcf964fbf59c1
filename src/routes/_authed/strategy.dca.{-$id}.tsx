import { createFileRoute } from '@tanstack/react-router';
import { DcaRoute } from '../../features/bots/components/bot-routes.tsx';
import { loadArea } from '../../lib/i18n.ts';

// Ours: DCA bots are created and edited here.
export const Route = createFileRoute('/_authed/strategy/dca/{-$id}')({ loader: () => loadArea('bots'), component: DcaRoute });
