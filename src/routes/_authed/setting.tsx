import { createFileRoute } from '@tanstack/react-router';
import { SettingPage } from '../../features/settings/components/setting-page.tsx';

export const Route = createFileRoute('/_authed/setting')({ component: SettingPage });
