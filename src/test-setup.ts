import { i18n, type Messages } from '@lingui/core';
import { messages as zh } from './locales/zh.po';
import { messages as en } from './locales/en.po';

// Every catalog of the PWA (public and each logged-in area; not the server's codes/), as if all were loaded.
const areas = import.meta.glob<Messages>(['./locales/*/*.po', '!./locales/codes/*.po'], { eager: true, import: 'messages' });
const all = (language: string) =>
  Object.entries(areas)
    .filter(([path]) => path.endsWith(`/${language}.po`))
    .map(([, messages]) => messages);
i18n.load({ zh: Object.assign({}, zh, ...all('zh')), en: Object.assign({}, en, ...all('en')) });
i18n.activate('zh');
