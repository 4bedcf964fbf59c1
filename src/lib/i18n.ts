import { i18n } from '@lingui/core';
import { messages as zh } from '../locales/zh.po';
import { messages as en } from '../locales/en.po';
import type { Language } from '../state/preferences.ts';

// Both catalogs are small, so both ship in the entry: switching language never waits for the network.
i18n.load({ zh, en });

/** Activates a language for every translated text, and mirrors it on <html lang>. */
export function activateLanguage(language: Language): void {
  if (i18n.locale !== language) i18n.activate(language);
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
}

export { i18n };
