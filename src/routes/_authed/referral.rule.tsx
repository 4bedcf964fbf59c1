import { createFileRoute } from '@tanstack/react-router';
import { ReferralRulePage } from '../../features/referral/components/rule-page.tsx';

export const Route = createFileRoute('/_authed/referral/rule')({ component: ReferralRulePage });
