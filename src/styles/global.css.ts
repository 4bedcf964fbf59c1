import { globalStyle } from '@vanilla-extract/css';
import { vars } from './theme.css.ts';
import { APP_COLUMN_PX } from './layout.ts';

globalStyle('*, *::before, *::after', { boxSizing: 'border-box' });
globalStyle('html', { colorScheme: 'light', WebkitTextSizeAdjust: '100%' });
globalStyle('html.dark', { colorScheme: 'dark' });
globalStyle('body', {
  margin: 0,
  minHeight: '100dvh',
  background: vars.color.bg,
  color: vars.color.text,
  fontFamily: vars.font.body,
  fontSize: vars.font.size,
  lineHeight: 1.5,
  WebkitTapHighlightColor: 'transparent',
});
globalStyle('a', { color: vars.color.primary, textDecoration: 'none' });
globalStyle('button, input, select, textarea', { font: 'inherit', color: 'inherit' });
globalStyle('#root', { maxWidth: APP_COLUMN_PX, margin: '0 auto', minHeight: '100dvh' });
