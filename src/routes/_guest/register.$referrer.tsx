import { createFileRoute } from '@tanstack/react-router';
import { RegisterWithReferrer } from '../../features/auth/components/register-with-referrer.tsx';

/** A referral link: /register/{referrer} opens registration with the referrer filled in. */
export const Route = createFileRoute('/_guest/register/$referrer')({ component: RegisterWithReferrer });
