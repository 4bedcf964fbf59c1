import { style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';

export const box = style({ marginTop: vars.space.md });
