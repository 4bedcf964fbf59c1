import { createFileRoute } from '@tanstack/react-router';
import { DetailRoute } from '../../features/bots/components/bot-routes.tsx';

export const Route = createFileRoute('/_authed/strategy/detail/$id')({ component: DetailRoute });
