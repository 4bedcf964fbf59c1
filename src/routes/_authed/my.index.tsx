import { createFileRoute } from '@tanstack/react-router';
import { MyPage } from '../../features/settings/components/my-page.tsx';

export const Route = createFileRoute('/_authed/my/')({ component: MyPage });
