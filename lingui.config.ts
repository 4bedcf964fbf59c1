import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

/**
 * zh is the source and the fallback; en is the second language (spec §2). Two catalogs: the PWA's
 * texts (src/locales/{locale}.po, bundled) and the server's answer texts (src/locales/codes/, read by
 * the server only), so the app does not ship ninety messages it never shows.
 */
export default defineConfig({
  sourceLocale: 'zh',
  locales: ['zh', 'en'],
  fallbackLocales: { default: 'zh' },
  catalogs: [
    { path: '<rootDir>/src/locales/codes/{locale}', include: ['<rootDir>/src/locales/code-messages.ts'] },
    { path: '<rootDir>/src/locales/{locale}', include: ['<rootDir>/src'], exclude: ['**/*.test.*', '<rootDir>/src/locales/code-messages.ts'] },
  ],
  format: formatter({ origins: false, lineNumbers: false, explicitIdAsDefault: true }),
});
