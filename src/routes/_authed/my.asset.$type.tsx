import { createFileRoute } from '@tanstack/react-router';
import { AssetRoute } from '../../features/funds/components/asset-page.tsx';

export const Route = createFileRoute('/_authed/my/asset/$type')({ component: AssetRoute });
