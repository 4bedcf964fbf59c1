import { createFileRoute } from '@tanstack/react-router';
import { ActionRoute } from '../../features/bots/components/bot-routes.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/strategy/action/$id')({ loader: () => loadArea('bots'), component: ActionRoute });
