import { useEffect } from 'react';
import { Outlet } from '@tanstack/react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../shared/query.ts';
import { provideTabBar } from '../components/ui/tab-bar/lazy-tab-bar.tsx';
import { TabBar } from '../components/ui/tab-bar/tab-bar.tsx';
import { provideApi } from '../lib/lazy-api.ts';
import { api } from '../lib/api.ts';
import { errorText } from '../lib/http.ts';

export { HomePage } from '../features/bots/components/home-page.tsx';
export { prefetchHome } from '../features/bots/home-data.ts';

/**
 * The logged-in frame (its query cache, the tab bar, the HTTP client) and home, the first logged-in
 * screen, in one file: the layout, home's route and its loader all import this module, so
 * the bundler makes it one chunk instead of eight files of a few hundred bytes, each a request of its
 * own (and a round trip of its own) on a phone's network. Every logged-in screen needs the frame; home's
 * own code is 2 kB of it.
 */
provideTabBar(TabBar);
provideApi({ api, errorText });

/** The logged-in screens share one query cache (server state through TanStack Query, loaded with them). */
export function AuthedFrame() {
  // The live stream, in a file of its own loaded once the first screen is up and the browser is idle (its
  // script must not delay the first render's): it follows the token from then on.
  useEffect(() => {
    const start = () => void import('../shared/live/live.ts').then((m) => m.startLive()).catch(() => undefined);
    if (typeof requestIdleCallback === 'function') {
      const idle = requestIdleCallback(start, { timeout: 2000 });
      return () => cancelIdleCallback(idle);
    }
    const timer = setTimeout(start, 500);
    return () => clearTimeout(timer);
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
