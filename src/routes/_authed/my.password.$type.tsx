import { createFileRoute, redirect } from '@tanstack/react-router';
import { passwordTypes, type PasswordType } from '../../../contract/rules.ts';
import { PasswordRoute } from '../../features/settings/components/password-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

/** /my/password/login and /my/password/payment; any other type goes back to /my. */
export const Route = createFileRoute('/_authed/my/password/$type')({
  params: { parse: ({ type }) => ({ type: type as PasswordType }) },
  beforeLoad: ({ params }) => {
    if (!(passwordTypes as readonly string[]).includes(params.type)) throw redirect({ to: '/my', replace: true });
  },
  loader: () => loadArea('settings'),
  component: PasswordRoute,
});
