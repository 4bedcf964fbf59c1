import { createFileRoute } from '@tanstack/react-router';
import { ReferralListRoute } from '../../features/referral/components/team-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/referral/list')({ loader: () => loadArea('referral'), component: ReferralListRoute });
