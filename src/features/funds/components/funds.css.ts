import { style } from '@vanilla-extract/css';
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
