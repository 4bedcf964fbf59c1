import { createFileRoute } from '@tanstack/react-router';
import { MyPage } from '../../features/settings/components/my-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/my/')({ loader: () => loadArea('settings'), component: MyPage });
