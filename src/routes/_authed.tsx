import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { store } from '../lib/store.ts';
import { isLoggedInAtom } from '../state/session.ts';
import { loadTabBar } from '../components/ui/tab-bar/lazy-tab-bar.tsx';
import { loadArea } from '../lib/i18n.ts';
import { loadApi } from '../lib/lazy-api.ts';
import { queryClient } from '../shared/query.ts';

/** The logged-in screens share one query cache (server state through TanStack Query, loaded with them). */
function Authed() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}

/** Logged-in-only screens: anyone else is sent to /login. */
export const Route = createFileRoute('/_authed')({
  beforeLoad: () => {
    if (!store.get(isLoggedInAtom)) throw redirect({ to: '/login', replace: true });
  },
  // In the loader, not the guard: fetched alongside the screen's own code and catalog, not before them.
  // The HTTP client too: every logged-in screen needs it, and its file would otherwise be found only once
  // the screen's shared code has arrived, one round trip later (issue 13 §7).
  loader: async () => {
    await Promise.all([loadTabBar(), loadArea('shared'), loadApi()]);
  },
  component: Authed,
});
