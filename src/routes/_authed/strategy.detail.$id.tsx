import { createFileRoute } from '@tanstack/react-router';
import { DetailRoute } from '../../features/bots/components/bot-routes.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/strategy/detail/$id')({ loader: () => loadArea('bots'), component: DetailRoute });
