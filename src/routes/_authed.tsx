import { createFileRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { store } from '../lib/store.ts';
import { isLoggedInAtom } from '../state/session.ts';
import { loadArea } from '../lib/i18n.ts';

/** The logged-in frame with home, one file (./-authed-home.tsx says why). */
const loadFrame = () => import('./-authed-home.tsx');

/** Logged-in-only screens: anyone else is sent to /login. */
export const Route = createFileRoute('/_authed')({
  beforeLoad: () => {
    if (!store.get(isLoggedInAtom)) throw redirect({ to: '/login', replace: true });
  },
  // In the loader, not the guard: fetched alongside the screen's own code and catalog, not before them.
  // The frame brings the tab bar and the HTTP client, so that a screen never renders without them.
  loader: async () => {
    await Promise.all([loadFrame(), loadArea('shared')]);
  },
  component: lazyRouteComponent(loadFrame, 'AuthedFrame'),
  // The frame is loaded as written above, not split off once more into a file of its own.
  codeSplitGroupings: [['notFoundComponent']],
});
