import { createFileRoute, redirect } from '@tanstack/react-router';
import { store } from '../lib/store.ts';
import { isLoggedInAtom } from '../state/session.ts';

/** Public-only screens: a logged-in user is sent home. */
export const Route = createFileRoute('/_guest')({
  beforeLoad: () => {
    if (store.get(isLoggedInAtom)) throw redirect({ to: '/', replace: true });
  },
});
