import { createFileRoute } from '@tanstack/react-router';
import { ReferralPage } from '../../features/referral/components/referral-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/referral/')({ loader: () => loadArea('referral'), component: ReferralPage });
