import { createFileRoute } from '@tanstack/react-router';
import { MartinRoute } from '../../features/bots/components/bot-routes.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/strategy/martin/{-$id}')({ loader: () => loadArea('bots'), component: MartinRoute });
