import { createFileRoute } from '@tanstack/react-router';
import { MartinRoute } from '../../features/bots/components/bot-routes.tsx';

export const Route = createFileRoute('/_authed/strategy/martin/{-$id}')({ component: MartinRoute });
