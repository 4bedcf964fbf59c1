import { style } from '@vanilla-extract/css';
import * as ui from '../../../components/ui/ui.css.ts';
import { vars } from '../../../styles/theme.css.ts';

export const qrCard = style([ui.card, { textAlign: 'center' }]);
/** White behind the code in both themes: scanners want dark on light. */
export const qr = style({ borderRadius: 8, background: '#fff' });
export const qrPlaceholder = style({ height: 180 });
export const link = style({ overflowWrap: 'anywhere', fontFamily: 'ui-monospace, monospace' });
export const rules = style({ margin: 0, paddingLeft: 20, display: 'grid', gap: vars.space.sm, lineHeight: 1.6 });
