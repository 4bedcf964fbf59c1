import type { ReactNode } from 'react';
import { Link, useRouterState } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { isTabBarVisible, type TabPath } from './tabs.ts';
import * as css from './tab-bar.css.ts';
import { UnreadBadge, useUnread } from '../../../shared/unread.tsx';
import * as unreadCss from '../../../shared/unread.css.ts';

const icon = (d: string): ReactNode => (
  <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.9" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <path d={d} />
  </svg>
);
const icons: Record<TabPath, ReactNode> = {
  '/': icon('M3 11l9-7 9 7v9a1 1 0 0 1-1 1h-5v-6h-6v6H4a1 1 0 0 1-1-1z'),
  '/simulation': icon('M4 19h16M6 16l4-5 3 3 5-7'),
  '/rank': icon('M6 21V10M12 21V4M18 21v-7'),
  '/strategy': icon('M12 3v18M5 8h14M5 16h14'),
  '/my': icon('M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0'),
};

/**
 * The bottom tab bar (docs/product.md §2): only on the five tab paths, fixed, 60px high. The router marks the
 * active tab (aria-current): home by exact match, the others by path prefix.
 */
export function TabBar() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const { t } = useLingui();
  const unread = useUnread();
  if (!isTabBarVisible(pathname)) return null;
  const labels: Record<TabPath, string> = { '/': t`首页`, '/simulation': t({ message: '模拟', context: 'tab' }), '/rank': t`排行`, '/strategy': t`现货`, '/my': t`我的` };
  return (
    <nav className={css.bar} aria-label={t`主导航`} data-testid="tab-bar">
      {(Object.keys(labels) as TabPath[]).map((path) => (
        <Link key={path} to={path} className={css.tab} activeOptions={{ exact: path === '/', includeSearch: false }}>
          {path === '/my' ? (
            <span className={unreadCss.iconHolder}>
              {icons[path]}
              <UnreadBadge count={unread} onIcon />
            </span>
          ) : (
            icons[path]
          )}
          <span>{labels[path]}</span>
        </Link>
      ))}
    </nav>
  );
}
