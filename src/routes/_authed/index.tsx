import { createFileRoute } from '@tanstack/react-router';
import { HomePage } from '../../features/bots/components/home-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

// The loader is part of the route tree (the /login entry): home's data code is imported on demand.
const prefetchHome = () => import('../../features/bots/home-data.ts').then((m) => m.prefetchHome());

export const Route = createFileRoute('/_authed/')({ loader: () => Promise.all([loadArea('bots'), prefetchHome()]), component: HomePage });
