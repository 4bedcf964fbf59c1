import { style } from '@vanilla-extract/css';
import * as blocks from '../../../shared/blocks.css.ts';
import { vars } from '../../../styles/theme.css.ts';

/** The close estimate's figures, two a row, clear of the dialog's buttons below. */
export const estimate = style([blocks.grid2, { rowGap: vars.space.sm, marginBottom: vars.space.lg }]);
