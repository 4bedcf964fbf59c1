import { style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';

export const profileCard = style({ display: 'flex', alignItems: 'center', gap: vars.space.lg });
export const avatar = style({
  width: 56,
  height: 56,
  borderRadius: '50%',
  display: 'grid',
  placeItems: 'center',
  background: vars.color.primarySoft,
  color: vars.color.primary,
  fontSize: 24,
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
export const about = style({ display: 'grid', justifyItems: 'center', gap: vars.space.sm, padding: `${vars.space.xl} 0` });
export const steps = style({ margin: `0 0 ${vars.space.lg}`, paddingLeft: vars.space.xl, display: 'grid', gap: vars.space.sm, lineHeight: 1.5 });
