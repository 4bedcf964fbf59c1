import { createFileRoute } from '@tanstack/react-router';
import { ProfilePage } from '../../features/settings/components/profile-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/my/profile')({ loader: () => loadArea('settings'), component: ProfilePage });
