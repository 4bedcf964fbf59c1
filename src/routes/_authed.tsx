import { createFileRoute, redirect } from '@tanstack/react-router';
import { store } from '../lib/store.ts';
import { isLoggedInAtom } from '../state/session.ts';

/** Logged-in-only screens: anyone else is sent to /login. */
export const Route = createFileRoute('/_authed')({
  beforeLoad: () => {
    if (!store.get(isLoggedInAtom)) throw redirect({ to: '/login', replace: true });
  },
});
