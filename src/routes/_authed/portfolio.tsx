import { createFileRoute } from '@tanstack/react-router';
import { MyPage } from '../../features/settings/components/my-page.tsx';

/** /portfolio is the same page as /my (spec §2). */
export const Route = createFileRoute('/_authed/portfolio')({ component: MyPage });
