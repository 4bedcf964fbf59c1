import { i18n } from '@lingui/core';
import { messages as zh } from './locales/zh.po';
import { messages as en } from './locales/en.po';
import { messages as zhApp } from './locales/app/zh.po';
import { messages as enApp } from './locales/app/en.po';

i18n.load({ zh: { ...zh, ...zhApp }, en: { ...en, ...enApp } });
i18n.activate('zh');
