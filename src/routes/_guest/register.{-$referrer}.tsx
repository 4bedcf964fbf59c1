import { createFileRoute } from '@tanstack/react-router';
import { RegisterWithReferrer } from '../../features/auth/components/register-with-referrer.tsx';
import { loadArea } from '../../lib/i18n.ts';

/** What /register reads from its query: `?code=` a referrer's UID, as a referral link may carry it. */
export interface RegisterSearch {
  code?: string;
}

/**
 * Registration: /register, or a referral link, /register/{referrer} or /register?code={referrer}, which
 * fills the referrer in. A UID looks like a number to the router's query parser: it is read back as text.
 */
export const Route = createFileRoute('/_guest/register/{-$referrer}')({
  validateSearch: (search: { code?: unknown }): RegisterSearch => (search.code ? { code: String(search.code) } : {}),
  loader: () => loadArea('register'),
  component: RegisterWithReferrer,
});
