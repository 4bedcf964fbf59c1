import { createFileRoute } from '@tanstack/react-router';
import { PositionsPage } from '../../features/bots/components/positions-page.tsx';

export const Route = createFileRoute('/_authed/my/positions')({ component: PositionsPage });
