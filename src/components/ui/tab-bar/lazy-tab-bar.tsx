import { useEffect, useState, type ComponentType } from 'react';

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

/**
 * Renders the tab bar; on the logged-in screens its code is normally here already. Should the shell
 * render before the guard's preload finished, it renders again when the code arrives.
 */
export function LazyTabBar() {
  const [, setLoaded] = useState(TabBarImpl !== null);
  useEffect(() => {
    if (!TabBarImpl) void loadTabBar().then(() => setLoaded(true));
  }, []);
  return TabBarImpl ? <TabBarImpl /> : null;
}
