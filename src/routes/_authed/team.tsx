import { createFileRoute } from '@tanstack/react-router';
import { TeamRoute } from '../../features/referral/components/team-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/team')({ loader: () => loadArea('referral'), component: TeamRoute });
