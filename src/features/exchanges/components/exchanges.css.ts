import { style } from '@vanilla-extract/css';
import * as ui from '../../../components/ui/ui.css.ts';
import { vars } from '../../../styles/theme.css.ts';
import * as blocks from '../../../shared/blocks.css.ts';

export const logo = style({
  width: 36,
  height: 36,
  borderRadius: '50%',
  display: 'grid',
  placeItems: 'center',
  background: vars.color.primarySoft,
  color: vars.color.primary,
  fontWeight: 700,
  flexShrink: 0,
});
/**
 * An exchange's name in the list: at 320 px "已绑定 pape****y001" squeezed "Paper · virtual funds" to one
 * word a line; the name keeps 6em and the binding wraps at its space instead.
 */
export const name = style([ui.listLabel, { minWidth: '6em' }]);
/** "已绑定 pape****y001": wraps at its space when the row is narrow, right-aligned under itself. */
export const bound = style({ color: vars.color.success, fontSize: vars.font.small, textAlign: 'right' });
export const ipRow = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: vars.space.md, fontFamily: 'ui-monospace, monospace' });
/** The copy button beside each IP: a chip (44 px to the finger, 32 to the eye) outlined in the primary colour. */
export const copy = style([blocks.chip, { backgroundColor: 'transparent', boxShadow: `inset 0 0 0 1px ${vars.color.primary}`, color: vars.color.primary }]);
export const advice = style({ margin: `${vars.space.sm} 0 0`, paddingLeft: vars.space.lg, color: vars.color.textMuted, fontSize: vars.font.small });
export const sectionTitle = style({ margin: `0 0 ${vars.space.sm}`, fontSize: vars.font.size, fontWeight: 600 });
export const note = style({ margin: `0 0 ${vars.space.sm}`, color: vars.color.textMuted, fontSize: vars.font.small, lineHeight: 1.6 });
export const nextSecondary = style([blocks.linkButton.secondary, { marginTop: vars.space.sm }]);
/** A card's only paragraph: no margin of its own, so the card's padding is all the space around it. */
export const plain = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.small, lineHeight: 1.6 });
export const firstLine = style({ marginTop: 0 });
