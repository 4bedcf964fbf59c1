import { StrictMode } from 'react';
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
await activateLanguage(store.get(preferencesAtom).language);
applyPreferences(store, activateLanguage);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nProvider>
  </StrictMode>,
);
