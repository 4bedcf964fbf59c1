import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';

export const screen = style({ padding: `0 ${vars.space.lg} ${vars.space.xl}`, minHeight: '100dvh' });
export const topBar = style({ display: 'flex', justifyContent: 'flex-end', gap: vars.space.sm, paddingTop: vars.space.md });
/** The top bar's chips (language, theme): 44 px high to the finger, a 36 px pill inside a 4 px transparent border (the fill stops at the padding; the outline is an inset shadow). */
export const chip = style({
  boxSizing: 'border-box',
  height: 44,
  padding: `0 ${vars.space.md}`,
  border: '4px solid transparent',
  borderLeftWidth: 0,
  borderRightWidth: 0,
  borderRadius: '18px / 22px',
  backgroundClip: 'padding-box',
  boxShadow: `inset 0 0 0 1px ${vars.color.border}`,
  backgroundColor: vars.color.surface,
  color: vars.color.text,
  fontSize: vars.font.small,
  cursor: 'pointer',
});
export const brand = style({ display: 'grid', justifyItems: 'center', gap: vars.space.sm, margin: `${vars.space.xl} 0` });
export const brandName = style({ margin: 0, fontSize: 24, fontWeight: 700 });
export const tagline = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.small, textAlign: 'center' });
export const passwordRow = style({ position: 'relative' });
export const reveal = style({
  position: 'absolute',
  right: 4,
  top: 26,
  height: 44,
  padding: `0 ${vars.space.md}`,
  border: 0,
  background: 'transparent',
  color: vars.color.primary,
  fontSize: vars.font.small,
  cursor: 'pointer',
});
export const switchLine = style({ textAlign: 'center', marginTop: vars.space.lg, color: vars.color.textMuted });
export const agreement = style({ display: 'flex', gap: vars.space.sm, alignItems: 'flex-start', fontSize: vars.font.small, margin: `${vars.space.sm} 0` });
export const checkbox = style({ width: 20, height: 20, margin: '1px 0 0', accentColor: vars.color.primary });
// The documents' links inside the agreement sentence: underlined (WCAG 1.4.1), and a taller hit area
// than the line (inline padding does not move the text).
export const docLink = style({ color: vars.color.primary, textDecoration: 'underline', textUnderlineOffset: 3, padding: '13px 0' });
// Doubled class: wins over the base input padding whatever order the stylesheets load in.
export const withReveal = style({ selectors: { '&&': { paddingRight: 72 } } });

// A link inside a sentence is underlined: colour alone does not tell it apart (WCAG 1.4.1).
globalStyle(`${switchLine} a`, { textDecoration: 'underline', textUnderlineOffset: 3 });
