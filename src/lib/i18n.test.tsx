import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { i18n, activateLanguage } from './i18n.ts';

// The Lingui macros need the Babel step of vite.config.ts: without it the build passes and the app crashes.
describe('translated components through the real Vite config', () => {
  it('render in zh and then in en, and set <html lang>', async () => {
    await activateLanguage('zh');
    const { rerender } = render(<I18nProvider i18n={i18n}><Trans>首页</Trans></I18nProvider>);
    expect(screen.getByText('首页')).toBeTruthy();
    expect(document.documentElement.lang).toBe('zh-CN');
    await activateLanguage('en');
    rerender(<I18nProvider i18n={i18n}><Trans>首页</Trans></I18nProvider>);
    expect(screen.getByText('Home')).toBeTruthy();
    expect(document.documentElement.lang).toBe('en');
    await activateLanguage('zh');
  });
});
