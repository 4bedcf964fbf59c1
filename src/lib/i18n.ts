import { i18n, type Messages } from '@lingui/core';
import { messages as zhUi } from '../locales/zh.po';
import type { Language } from '../state/preferences.ts';

/**
 * Catalogs by area (lingui.config.ts): `ui` (public screens, shell, client messages) and `app` (the
 * logged-in screens). zh `ui` ships in the entry; everything else loads on demand: en when chosen, `app`
 * when a logged-in screen is first opened (its guard awaits it, so no text shows untranslated).
 */
export type Area = 'ui' | 'app';

const loaders: Record<Language, Record<Area, () => Promise<Messages>>> = {
  zh: { ui: async () => zhUi, app: async () => (await import('../locales/app/zh.po')).messages },
  en: {
    ui: async () => (await import('../locales/en.po')).messages,
    app: async () => (await import('../locales/app/en.po')).messages,
  },
};

const loaded = new Set<string>();
const areas = new Set<Area>(['ui']);
let wanted: Language = 'zh';

async function load(language: Language, area: Area): Promise<void> {
  const key = `${language}:${area}`;
  if (loaded.has(key)) return;
  i18n.load(language, await loaders[language][area]());
  loaded.add(key);
}

/** Makes an area's texts available in the current language (and in any language chosen later). */
export async function loadArea(area: Area): Promise<void> {
  areas.add(area);
  await load(wanted, area);
}

/** Activates a language for every translated text (loading its catalogs first), and sets <html lang>. */
export async function activateLanguage(language: Language): Promise<void> {
  wanted = language;
  await Promise.all([...areas].map((area) => load(language, area)));
  // A slower, older switch must not win over the latest choice.
  if (wanted !== language) return;
  if (i18n.locale !== language) i18n.activate(language);
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
}

export { i18n };
