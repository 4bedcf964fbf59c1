import { createFileRoute } from '@tanstack/react-router';
import { RankPage } from '../../features/rank/components/rank-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/rank')({ loader: () => loadArea('rank'), component: RankPage });
