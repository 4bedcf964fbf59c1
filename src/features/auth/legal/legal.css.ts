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
// its own), 36 px to the eye and 44 px to the finger (the ::after), in line with the card's edge.
export const language = style({
  position: 'relative',
  height: 36,
  marginRight: vars.space.md,
  padding: `0 ${vars.space.md}`,
  borderRadius: 18,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.text,
  fontSize: vars.font.small,
  cursor: 'pointer',
  selectors: { '&::after': { content: '""', position: 'absolute', inset: '-4px 0' } },
});

globalStyle(`${doc} p`, { margin: `${vars.space.sm} 0` });
globalStyle(`${doc} li`, { margin: `${vars.space.xs} 0` });
globalStyle(`${doc} a`, { color: vars.color.primary, textDecoration: 'underline', textUnderlineOffset: 3 });
globalStyle(`${doc} > :first-child`, { marginTop: 0 });
