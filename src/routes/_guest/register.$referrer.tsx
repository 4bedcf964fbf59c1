import { createFileRoute } from '@tanstack/react-router';
import { RegisterForm } from '../../features/auth/components/register-form.tsx';

/** A referral link: /register/{referrer} opens registration with the referrer filled in. */
export const Route = createFileRoute('/_guest/register/$referrer')({
  component: function RegisterWithReferrer() {
    const { referrer } = Route.useParams();
    return <RegisterForm referrer={referrer} />;
  },
});
