import { createFileRoute } from '@tanstack/react-router';
import { ProfilePage } from '../../features/settings/components/profile-page.tsx';

export const Route = createFileRoute('/_authed/my/profile')({ component: ProfilePage });
