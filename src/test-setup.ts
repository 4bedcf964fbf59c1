import { i18n } from '@lingui/core';
import { messages as zh } from './locales/zh.po';
import { messages as en } from './locales/en.po';

i18n.load({ zh, en });
i18n.activate('zh');
