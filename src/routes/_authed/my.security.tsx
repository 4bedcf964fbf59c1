import { createFileRoute } from '@tanstack/react-router';
import { SecurityPage } from '../../features/settings/components/security-page.tsx';

export const Route = createFileRoute('/_authed/my/security')({ component: SecurityPage });
