import { createFileRoute } from '@tanstack/react-router';
import { BindAccountRoute } from '../../features/settings/components/bind-route.tsx';

export const Route = createFileRoute('/_authed/my/bind/$type')({ component: BindAccountRoute });
