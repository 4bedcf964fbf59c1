import { createFileRoute } from '@tanstack/react-router';
import { MyPage } from '../../features/settings/components/my-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

/** /portfolio is the same page as /my (docs/product.md §2). */
export const Route = createFileRoute('/_authed/portfolio')({ loader: () => loadArea('settings'), component: MyPage });
