import { createFileRoute } from '@tanstack/react-router';
import { AssetRoute } from '../../features/assets/components/asset-page.tsx';

export const Route = createFileRoute('/_authed/my/asset/$type')({ component: AssetRoute });
