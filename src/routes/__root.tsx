import { Outlet, createRootRoute, useRouterState } from '@tanstack/react-router';
import { LazyTabBar } from '../components/ui/tab-bar/lazy-tab-bar.tsx';
import { isTabBarVisible } from '../components/ui/tab-bar/tabs.ts';
import { shell } from '../components/ui/tab-bar/shell.css.ts';
import { Toaster } from '../components/ui/toaster.tsx';

function Shell() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const withTabs = isTabBarVisible(pathname);
  return (
    <div data-testid="shell" className={shell[withTabs ? 'withTabs' : 'plain']}>
      <Outlet />
      {withTabs ? <LazyTabBar /> : null}
      <Toaster />
    </div>
  );
}

export const Route = createRootRoute({ component: Shell });
