import { createFileRoute } from '@tanstack/react-router';
import { RegisterWithReferrer } from '../../features/auth/components/register-with-referrer.tsx';
import { loadArea } from '../../lib/i18n.ts';

/** A referral link: /register/{referrer} opens registration with the referrer filled in. */
export const Route = createFileRoute('/_guest/register/$referrer')({ loader: () => loadArea('register'), component: RegisterWithReferrer });
