import type { ComponentType } from 'react';

/**
 * The tab bar's code, loaded on demand: /login and /register never show it. The logged-in guard awaits
 * `loadTabBar()` before a screen renders, so the bar never pops in late.
 */
let TabBarImpl: ComponentType | null = null;
let loading: Promise<void> | undefined;

export function loadTabBar(): Promise<void> {
  loading ??= import('./tab-bar.tsx').then((m) => {
    TabBarImpl = m.TabBar;
  });
  return loading;
}

/** Renders the tab bar once its code is here (always, on the logged-in screens). */
export function LazyTabBar() {
  return TabBarImpl ? <TabBarImpl /> : null;
}
