import { Outlet, createRootRoute, useRouterState } from '@tanstack/react-router';
import { LazyTabBar } from '../components/ui/tab-bar/lazy-tab-bar.tsx';
import { TAB_BAR_PADDING, isTabBarVisible } from '../components/ui/tab-bar/tabs.ts';
import { Toaster } from '../components/ui/toaster.tsx';

function Shell() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const withTabs = isTabBarVisible(pathname);
  return (
    <div data-testid="shell" style={{ paddingBottom: withTabs ? TAB_BAR_PADDING : 0 }}>
      <Outlet />
      {withTabs ? <LazyTabBar /> : null}
      <Toaster />
    </div>
  );
}

export const Route = createRootRoute({ component: Shell });
