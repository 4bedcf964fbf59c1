import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

const exclude = ['**/*.test.*'];

/**
 * The areas loaded on demand, one catalog each: the features of src/features (but auth, a public
 * screen), each loaded by the routes that show that feature; `shared` (src/shared, the tab bar and the logged-in
 * routes' own texts), loaded by the layout of every logged-in screen; `wallet` (the wallet's error
 * texts), loaded only when a wallet flow fails; `register` (the registration form), loaded by its
 * route; `legal` (the user agreement and the privacy policy: long, and rarely read), loaded by theirs.
 * src/lib/i18n.ts lists the same names (its test checks that the lists agree).
 */
export const features = ['alerts', 'bots', 'exchanges', 'funds', 'market', 'notices', 'rank', 'referral', 'settings'] as const;
const areas: Record<string, string[]> = {
  ...Object.fromEntries(features.map((f) => [f, [`<rootDir>/src/features/${f}`]])),
  // The tab bar shows on logged-in screens only, loaded with this catalog by their layout.
  shared: ['<rootDir>/src/shared', '<rootDir>/src/routes/_authed', '<rootDir>/src/components/ui/tab-bar/tab-bar.tsx'],
  wallet: ['<rootDir>/src/lib/wallet/wallet-errors.ts'],
  // A public screen, but /login (the entry) need not carry its texts.
  register: ['<rootDir>/src/features/auth/components/register-form.tsx'],
  legal: ['<rootDir>/src/features/auth/legal'],
};

/**
 * zh is the source and the fallback; en is the second language (spec §2). A catalog per area, so each
 * screen ships only the texts it can show:
 * - src/locales/{locale}: the public screens, the shell and the client's messages (zh in the entry);
 * - src/locales/<area>/{locale}: one per area above (e.g. src/locales/bots/zh.po);
 * - src/locales/codes/{locale}: the server's answer texts (read by the server only).
 */
export default defineConfig({
  sourceLocale: 'zh',
  locales: ['zh', 'en'],
  fallbackLocales: { default: 'zh' },
  catalogs: [
    { path: '<rootDir>/src/locales/codes/{locale}', include: ['<rootDir>/src/locales/code-messages.ts'] },
    ...Object.entries(areas).map(([area, include]) => ({ path: `<rootDir>/src/locales/${area}/{locale}`, include, exclude })),
    {
      path: '<rootDir>/src/locales/{locale}',
      include: ['<rootDir>/src'],
      exclude: [...exclude, '<rootDir>/src/locales/code-messages.ts', ...Object.values(areas).flat()],
    },
  ],
  format: formatter({ origins: false, lineNumbers: false, explicitIdAsDefault: true }),
});
