import { createFileRoute } from '@tanstack/react-router';
import { HomePage } from '../../features/bots/components/home-page.tsx';

export const Route = createFileRoute('/_authed/')({ component: HomePage });
