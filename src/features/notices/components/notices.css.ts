import { style } from '@vanilla-extract/css';
import * as ui from '../../../components/ui/ui.css.ts';
import * as blocks from '../../../shared/blocks.css.ts';
import { vars } from '../../../styles/theme.css.ts';

export const title = style({ marginTop: 0 });
/** A notice in the list: a list row holding two lines instead of one. */
export const item = style([ui.listRow, { display: 'block', padding: `${vars.space.md} ${vars.space.lg}` }]);
export const text = style([blocks.figureLabel, { marginTop: vars.space.xs }]);
export const hiddenList = style([ui.list, { display: 'none' }]);

/** A chip that is a link (the notices' tabs, each an address): its words centred as a button chip's are. */
export const chipLink = style([blocks.chip, { display: 'inline-flex', alignItems: 'center', textDecoration: 'none' }]);
