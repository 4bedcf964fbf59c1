import { createGlobalTheme, createThemeContract, globalStyle } from '@vanilla-extract/css';

/** The theme contract: every colour the UI uses. Light on :root, dark when <html> has class "dark". */
export const vars = createThemeContract({
  color: {
    primary: null,
    primaryText: null,
    primarySoft: null,
    bg: null,
    surface: null,
    surfaceAlt: null,
    text: null,
    textMuted: null,
    border: null,
    danger: null,
    success: null,
    warning: null,
    /** A price or a profit going up, and down: green and red, or red and green (<html> class "red-up"). */
    up: null,
    down: null,
    info: null,
    toastText: null,
    overlay: null,
  },
  space: { xs: null, sm: null, md: null, lg: null, xl: null },
  radius: { sm: null, md: null, lg: null },
  font: { body: null, size: null, small: null, title: null },
});

/**
 * The body's font stacks. Chinese first puts the CJK fonts before the Latin ones, so Chinese punctuation
 * (，“”’) stays full-width; English puts Latin fonts first, else a CJK font draws the curly quotes and
 * apostrophes of English texts full-width ("market’ s"). A font missing a glyph falls back along the stack.
 * DejaVu Sans is the Latin font of a bare Linux (Chromium's package brings it) with none of the others.
 */
export const fontStacks = {
  zh: '-apple-system, BlinkMacSystemFont, "PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", "Segoe UI", Roboto, sans-serif',
  en: '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Liberation Sans", "DejaVu Sans", "PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif',
};

const shared = {
  space: { xs: '4px', sm: '8px', md: '12px', lg: '16px', xl: '24px' },
  radius: { sm: '6px', md: '10px', lg: '16px' },
  font: {
    body: fontStacks.zh,
    size: '15px',
    small: '13px',
    title: '18px',
  },
};

// Contrast: text on bg and primaryText on primary are at least 4.5:1 in both themes (checked in theme.test.ts).

export const lightColors = {
  primary: '#1d5fd6',
  primaryText: '#ffffff',
  primarySoft: '#e6efff',
  bg: '#f4f6fa',
  surface: '#ffffff',
  surfaceAlt: '#eef1f6',
  text: '#14181f',
  textMuted: '#5a6474',
  border: '#dde2ea',
  danger: '#c62828',
  success: '#18773a',
  warning: '#a15c00',
  up: '#18773a',
  down: '#c62828',
  info: '#1d5fd6',
  toastText: '#ffffff',
  overlay: 'rgba(10, 14, 20, 0.5)',
};

export const darkColors = {
  primary: '#4d8dff',
  primaryText: '#0b1220',
  primarySoft: '#1a2b4a',
  bg: '#0e1116',
  surface: '#171b22',
  surfaceAlt: '#1f242d',
  text: '#e8ecf2',
  textMuted: '#9aa4b2',
  border: '#2a303a',
  danger: '#ff6b6b',
  success: '#43c46b',
  warning: '#f0a83a',
  up: '#43c46b',
  down: '#ff6b6b',
  info: '#4d8dff',
  toastText: '#0b1220',
  overlay: 'rgba(0, 0, 0, 0.6)',
};

createGlobalTheme(':root', vars, { color: lightColors, ...shared });
createGlobalTheme(':root.dark', vars, { color: darkColors, ...shared });
// Red up, green down (as many Chinese traders read a market): the two directions swap colours.
globalStyle(':root.red-up', { vars: { [vars.color.up]: lightColors.down, [vars.color.down]: lightColors.up } });
globalStyle(':root.dark.red-up', { vars: { [vars.color.up]: darkColors.down, [vars.color.down]: darkColors.up } });
// English (<html lang="en">, set by src/lib/i18n.ts and public/boot.js): Latin fonts first (fontStacks).
globalStyle(':root[lang="en"], :root.dark[lang="en"]', { vars: { [vars.font.body]: fontStacks.en } });
