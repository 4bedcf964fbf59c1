import { createFileRoute } from '@tanstack/react-router';
import { ActionRoute } from '../../features/bots/components/bot-routes.tsx';

export const Route = createFileRoute('/_authed/strategy/action/$id')({ component: ActionRoute });
