import { createFileRoute } from '@tanstack/react-router';
import { FuturesPage } from '../../features/market/components/futures-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/futures')({ loader: () => loadArea('market'), component: FuturesPage });
