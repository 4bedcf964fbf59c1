import { style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';

/** The webhook URL: monospace, broken anywhere (a 70-character URL on a 320 px screen). */
export const mono = style({ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 12, overflowWrap: 'anywhere', wordBreak: 'break-all' });
export const copyRow = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, justifyContent: 'space-between', marginTop: vars.space.xs });
/** The example alert body. */
export const example = style({
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
  fontSize: 12,
  background: vars.color.surfaceAlt,
  borderRadius: vars.radius.sm,
  padding: vars.space.sm,
  margin: `${vars.space.xs} 0 0`,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
});
export const block = style({ marginTop: vars.space.md });
export const actions = style({ display: 'flex', gap: vars.space.sm, flexWrap: 'wrap', marginTop: vars.space.sm });
