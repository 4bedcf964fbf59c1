import { Outlet, createRootRoute, useRouterState } from '@tanstack/react-router';
import { TabBar } from '../components/ui/tab-bar/tab-bar.tsx';
import { TAB_BAR_PADDING, isTabBarVisible } from '../components/ui/tab-bar/tabs.ts';
import { Toaster } from '../components/ui/toaster.tsx';

function Shell() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const withTabs = isTabBarVisible(pathname);
  return (
    <div data-testid="shell" style={{ paddingBottom: withTabs ? TAB_BAR_PADDING : 0 }}>
      <Outlet />
      <TabBar />
      <Toaster />
    </div>
  );
}

export const Route = createRootRoute({ component: Shell });
