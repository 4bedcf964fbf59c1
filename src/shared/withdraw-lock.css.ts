import { globalStyle, style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../styles/theme.css.ts';
import * as ui from '../components/ui/ui.css.ts';

/** The withdrawal state: a warning stripe while locked, a calm one when open. */
const bannerBase = style({
  borderRadius: vars.radius.lg,
  border: `1px solid ${vars.color.border}`,
  borderLeftWidth: 4,
  background: vars.color.surface,
  padding: `${vars.space.md} ${vars.space.lg}`,
  marginBottom: vars.space.md,
});
export const banner = styleVariants({
  locked: [bannerBase, { borderLeftColor: vars.color.warning }],
  open: [bannerBase, { borderLeftColor: vars.color.success }],
});
export const bannerTitle = style({ margin: `0 0 ${vars.space.xs}`, fontSize: 15, fontWeight: 600 });
globalStyle(`${banner.locked} ${bannerTitle}`, { color: vars.color.warning });
globalStyle(`${banner.open} ${bannerTitle}`, { color: vars.color.success });
export const bannerText = style({ margin: 0, lineHeight: 1.5, color: vars.color.textMuted, fontSize: vars.font.small });
export const bannerLink = style([ui.textLink, { display: 'inline-block', marginTop: vars.space.sm, color: vars.color.primary, fontSize: vars.font.small, fontWeight: 600 }]);
