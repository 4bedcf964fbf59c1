import { createFileRoute } from '@tanstack/react-router';
import { TeamRoute } from '../../features/referral/components/team-page.tsx';

export const Route = createFileRoute('/_authed/team')({ component: TeamRoute });
