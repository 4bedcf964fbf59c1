import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';

/** A document to read: body text with room between the lines, headings that stand out from it. */
export const doc = style({ lineHeight: 1.7, fontSize: vars.font.size, overflowWrap: 'anywhere' });
export const updated = style({ margin: `0 0 ${vars.space.md}`, color: vars.color.textMuted, fontSize: vars.font.small });
export const heading = style({ margin: `${vars.space.xl} 0 ${vars.space.sm}`, fontSize: 16, fontWeight: 600 });
export const list = style({ margin: `${vars.space.sm} 0`, paddingLeft: 20 });
export const other = style({ marginTop: vars.space.xl });
// The link to the other document: its line to the eye, 44 px high to the finger (inline padding).
export const otherLink = style({ padding: '11px 0' });
// The login screen's language chip (its own copy: sharing auth.css.ts would split that into a chunk of
// its own), in line with the card's edge: 44 px high to the finger, its 36 px pill inside a 4 px
// transparent border (the fill stops at the padding; the outline is an inset shadow).
export const language = style({
  boxSizing: 'border-box',
  height: 44,
  marginRight: vars.space.md,
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

globalStyle(`${doc} p`, { margin: `${vars.space.sm} 0` });
globalStyle(`${doc} li`, { margin: `${vars.space.xs} 0` });
globalStyle(`${doc} a`, { color: vars.color.primary, textDecoration: 'underline', textUnderlineOffset: 3 });
globalStyle(`${doc} > :first-child`, { marginTop: 0 });
