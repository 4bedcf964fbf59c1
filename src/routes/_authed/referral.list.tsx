import { createFileRoute } from '@tanstack/react-router';
import { ReferralListRoute } from '../../features/referral/components/team-page.tsx';

export const Route = createFileRoute('/_authed/referral/list')({ component: ReferralListRoute });
