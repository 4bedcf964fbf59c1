import { i18n, type Messages } from '@lingui/core';
import { messages as zhUi } from '../locales/zh.po';
import type { Language } from '../state/preferences.ts';

/**
 * Catalogs by area (lingui.config.ts): `ui` (login, the shell, client messages), `shared` (what every
 * logged-in screen shares), one per logged-in feature, `register`, `legal` (the user agreement and the
 * privacy policy) and `wallet` (the wallet's error texts). zh `ui` ships in the entry; everything else
 * loads on demand: en when chosen, an area when a screen that shows it is first opened (the routes'
 * loaders await it, so no text shows untranslated).
 */
export const areas = ['ui', 'shared', 'wallet', 'register', 'alerts', 'bots', 'exchanges', 'funds', 'legal', 'market', 'notices', 'rank', 'referral', 'settings'] as const;
export type Area = (typeof areas)[number];

async function catalog(language: Language, area: Area): Promise<Messages> {
  if (area === 'ui') return language === 'zh' ? zhUi : (await import('../locales/en.po')).messages;
  // Every area has both (src/lib/i18n.test.tsx).
  return (await (await import('../locales/areas.ts')).catalogs[`./${area}/${language}.po`]!()).messages;
}

const loaded = new Set<string>();
const wantedAreas = new Set<Area>(['ui']);
let wanted: Language = 'zh';

async function load(language: Language, area: Area): Promise<void> {
  const key = `${language}:${area}`;
  if (loaded.has(key)) return;
  i18n.load(language, await catalog(language, area));
  loaded.add(key);
}

/** Makes an area's texts available in the current language (and in any language chosen later). */
export async function loadArea(area: Area): Promise<void> {
  wantedAreas.add(area);
  await load(wanted, area);
}

/** Activates a language for every translated text (loading its catalogs first), and sets <html lang>. */
export async function activateLanguage(language: Language): Promise<void> {
  wanted = language;
  await Promise.all([...wantedAreas].map((area) => load(language, area)));
  // A slower, older switch must not win over the latest choice.
  if (wanted !== language) return;
  if (i18n.locale !== language) i18n.activate(language);
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
}

export { i18n };
