import { createFileRoute } from '@tanstack/react-router';
import { SettingPage } from '../../features/settings/components/setting-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/setting')({ loader: () => loadArea('settings'), component: SettingPage });
