import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider, createRouter } from '@tanstack/react-router';
import { I18nProvider } from '@lingui/react';
import { routeTree } from './routeTree.gen.ts';
import { store } from './lib/store.ts';
import { i18n, activateLanguage } from './lib/i18n.ts';
import { setNavigator } from './lib/navigation.ts';
import { applyPreferences } from './state/apply-preferences.ts';
import { preferencesAtom } from './state/preferences.ts';
import './styles/global.css.ts';

const router = createRouter({ routeTree, defaultPreload: 'intent', scrollRestoration: true });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

setNavigator((path) => void router.navigate({ to: path, replace: true }));
// The stored language's catalog is in place before the first render: no flash of the other language.
// So is the first screen (its code, catalogs and loaders; the splash shows meanwhile), and it renders in
// one transition, which yields to the browser every few milliseconds, instead of an empty shell first
// and then the screen in one long task when its code arrives.
await Promise.all([activateLanguage(store.get(preferencesAtom).language), router.load().catch(() => undefined)]);
applyPreferences(store, activateLanguage);

const root = createRoot(document.getElementById('root')!);
startTransition(() =>
  root.render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nProvider>
    </StrictMode>,
  ),
);
