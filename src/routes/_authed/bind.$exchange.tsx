import { createFileRoute } from '@tanstack/react-router';
import { BindRoute } from '../../features/exchanges/components/bind-route.tsx';

export const Route = createFileRoute('/_authed/bind/$exchange')({ component: BindRoute });
