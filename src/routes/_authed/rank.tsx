import { createFileRoute } from '@tanstack/react-router';
import { RankPage } from '../../features/rank/components/rank-page.tsx';

export const Route = createFileRoute('/_authed/rank')({ component: RankPage });
