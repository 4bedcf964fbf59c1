import { createFileRoute } from '@tanstack/react-router';
import { AiRoute } from '../../features/bots/components/bot-routes.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/strategy/ai/{-$id}')({ loader: () => loadArea('bots'), component: AiRoute });
