import { createVar, fallbackVar, style } from '@vanilla-extract/css';
import * as ui from '../../../components/ui/ui.css.ts';
import * as blocks from '../../../shared/blocks.css.ts';
import { vars } from '../../../styles/theme.css.ts';

export const profileCard = style({ display: 'flex', alignItems: 'center', gap: vars.space.lg });
/** The avatar's side and letter size, set per use (56 px on My, 36 px in the profile list). */
export const avatarSize = createVar();
export const avatarFont = createVar();
export const avatar = style({
  width: fallbackVar(avatarSize, '56px'),
  height: fallbackVar(avatarSize, '56px'),
  borderRadius: '50%',
  display: 'grid',
  placeItems: 'center',
  background: vars.color.primarySoft,
  color: vars.color.primary,
  fontSize: fallbackVar(avatarFont, '24px'),
  fontWeight: 700,
  flexShrink: 0,
  objectFit: 'cover',
});
export const name = style({ margin: 0, fontSize: vars.font.title, fontWeight: 600, overflowWrap: 'anywhere' });
export const stats = style({ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', textAlign: 'center', gap: vars.space.sm });
export const statValue = style({ fontSize: vars.font.title, fontWeight: 600 });
export const chevron = style({ color: vars.color.textMuted });
export const check = style({ color: vars.color.primary, fontWeight: 700 });
export const switchTrack = style({
  width: 48,
  height: 28,
  borderRadius: 14,
  background: vars.color.border,
  position: 'relative',
  flexShrink: 0,
  transition: 'background 150ms',
});
export const switchTrackOn = style([switchTrack, { background: vars.color.primary }]);
export const switchThumb = style({
  position: 'absolute',
  top: 3,
  left: 3,
  width: 22,
  height: 22,
  borderRadius: '50%',
  background: '#fff',
  transition: 'transform 150ms',
});
export const switchThumbOn = style([switchThumb, { transform: 'translateX(20px)' }]);
export const about = style({ display: 'grid', justifyItems: 'center', gap: vars.space.sm, padding: `${vars.space.xl} ${vars.space.lg}` });
export const steps = style({ margin: `0 0 ${vars.space.lg}`, paddingLeft: vars.space.xl, display: 'grid', gap: vars.space.sm, lineHeight: 1.5 });
export const address = style({ fontFamily: 'ui-monospace, monospace', overflowWrap: 'anywhere' });
export const testCard = style([ui.card, { display: 'grid', gap: vars.space.sm }]);

/** The price-colour choice: two chips at the end of its row. */
export const colorChoices = style([blocks.chips, { margin: 0, flexShrink: 0 }]);

/**
 * A short label beside a long value (钱包地址 beside a 42-character address): the label keeps its words on
 * one line and the value wraps; a label allowed to shrink stood one character a line.
 */
export const fixedLabel = style([ui.listLabel, { flex: '1 0 auto' }]);
export const wrappingValue = style([ui.listValue, { minWidth: 0 }]);
