import { createFileRoute } from '@tanstack/react-router';
import { HomePage } from '../../features/bots/components/home-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/')({ loader: () => loadArea('bots'), component: HomePage });
