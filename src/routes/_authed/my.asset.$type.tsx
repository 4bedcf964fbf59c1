import { createFileRoute } from '@tanstack/react-router';
import { AssetRoute } from '../../features/funds/components/asset-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/my/asset/$type')({ loader: () => loadArea('funds'), component: AssetRoute });
