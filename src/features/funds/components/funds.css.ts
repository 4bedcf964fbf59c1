import { style, styleVariants } from '@vanilla-extract/css';
import * as ui from '../../../components/ui/ui.css.ts';
import * as blocks from '../../../shared/blocks.css.ts';
import { vars } from '../../../styles/theme.css.ts';

/** Addresses and hashes: monospace, broken anywhere (a 42-character address on a 390px screen). */
export const mono = style({ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13, overflowWrap: 'anywhere', wordBreak: 'break-all' });
export const qr = style({ display: 'block', margin: '0 auto', borderRadius: 8, background: '#fff' });
export const copyRow = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, justifyContent: 'space-between' });
export const note = style({ margin: `${vars.space.sm} 0 0`, color: vars.color.textMuted, fontSize: vars.font.small, lineHeight: 1.5 });
export const step = style({ color: vars.color.primary, fontSize: vars.font.small, marginTop: vars.space.sm });
export const inputRow = style({ display: 'grid', gridTemplateColumns: '1fr auto', gap: vars.space.sm, alignItems: 'end' });
/** A plain-words note under a field (the field keeps its own bottom margin above it). */
export const fieldNote = style({ margin: `calc(-1 * ${vars.space.sm}) 0 ${vars.space.md}`, color: vars.color.textMuted, fontSize: 12, lineHeight: 1.5 });
/** The explanation under a refusal, in the refusal's box. */
export const errorNote = style({ margin: `${vars.space.xs} 0 0`, color: vars.color.text, lineHeight: 1.5 });
/** A note right under a field or a balance: no gap above, a small or a medium one below. */
export const noteTight = styleVariants({
  sm: [note, { marginTop: 0, marginBottom: vars.space.sm }],
  md: [note, { marginTop: 0, marginBottom: vars.space.md }],
});
export const flush = style({ margin: 0 });
export const flushTop = style({ marginTop: 0 });
export const copyLine = style({ marginTop: vars.space.sm });
export const qrPlaceholder = style({ height: 168 });
export const grid2Spaced = styleVariants({
  top: [blocks.grid2, { marginTop: vars.space.sm }],
  bottom: [blocks.grid2, { marginBottom: vars.space.md }],
});
export const button = styleVariants({
  primary: [ui.button.primary, { marginBottom: vars.space.md }],
  secondary: [ui.button.secondary, { marginBottom: vars.space.md }],
});
export const balanceRow = style([blocks.rowTight, { marginBottom: vars.space.sm }]);
/** "All" beside the amount: as tall as the touch target. */
export const allButton = style([blocks.smallButton, { marginBottom: vars.space.md, minHeight: 44 }]);
export const assetActions = style([blocks.actions, { marginTop: vars.space.md }]);
