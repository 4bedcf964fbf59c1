import { i18n, type Messages } from '@lingui/core';
import { messages as zh } from '../locales/zh.po';
import type { Language } from '../state/preferences.ts';

// zh is the default and ships in the entry; en loads on demand (it is most of a catalog's weight, and
// main.tsx awaits it before the first render when en is stored, so nothing flashes in the wrong language).
i18n.load({ zh });
const loaded = new Set<Language>(['zh']);
const loaders: Record<Language, () => Promise<Messages>> = {
  zh: async () => zh,
  en: async () => (await import('../locales/en.po')).messages,
};

/** Makes a language's catalog available (once); resolves when it can be activated. */
export async function loadCatalog(language: Language): Promise<void> {
  if (loaded.has(language)) return;
  i18n.load(language, await loaders[language]());
  loaded.add(language);
}

let wanted: Language = 'zh';
/** Activates a language for every translated text (loading it first), and mirrors it on <html lang>. */
export async function activateLanguage(language: Language): Promise<void> {
  wanted = language;
  await loadCatalog(language);
  // A slower, older switch must not win over the latest choice.
  if (wanted !== language) return;
  if (i18n.locale !== language) i18n.activate(language);
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
}

export { i18n };
