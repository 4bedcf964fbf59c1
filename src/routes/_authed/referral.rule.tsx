import { createFileRoute } from '@tanstack/react-router';
import { ReferralRulePage } from '../../features/referral/components/rule-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/referral/rule')({ loader: () => loadArea('referral'), component: ReferralRulePage });
