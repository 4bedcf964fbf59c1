import { createFileRoute } from '@tanstack/react-router';
import { ReferralPage } from '../../features/referral/components/referral-page.tsx';

export const Route = createFileRoute('/_authed/referral/')({ component: ReferralPage });
