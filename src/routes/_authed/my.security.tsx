import { createFileRoute } from '@tanstack/react-router';
import { SecurityPage } from '../../features/settings/components/security-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/my/security')({ loader: () => loadArea('settings'), component: SecurityPage });
