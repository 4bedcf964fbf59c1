import { createFileRoute } from '@tanstack/react-router';
import { AiRoute } from '../../features/bots/components/bot-routes.tsx';

export const Route = createFileRoute('/_authed/strategy/ai/{-$id}')({ component: AiRoute });
