import { useSyncExternalStore, type ComponentType } from 'react';

/**
 * The tab bar's code arrives with the logged-in frame (src/routes/-authed-home.tsx provides it): /login
 * and /register never show it. The logged-in layout's loader awaits the frame before a screen renders,
 * so the bar never pops in late; should the shell render first, it renders again when the bar arrives.
 */
let TabBarImpl: ComponentType | null = null;
const listeners = new Set<() => void>();

export function provideTabBar(component: ComponentType): void {
  TabBarImpl = component;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function LazyTabBar() {
  const Impl = useSyncExternalStore(subscribe, () => TabBarImpl);
  return Impl ? <Impl /> : null;
}
