import { assignInlineVars } from '@vanilla-extract/dynamic';
import * as css from './settings.css.ts';

/** The user's picture, or the first letter of the name when there is none. */
export function Avatar({ src, name, size = 56 }: { src: string; name: string; size?: number }) {
  const box = assignInlineVars({ [css.avatarSize]: `${size}px`, [css.avatarFont]: `${Math.round(size * 0.43)}px` });
  if (src) return <img className={css.avatar} style={box} src={src} alt="" width={size} height={size} />;
  return (
    <span className={css.avatar} style={box} aria-hidden="true">
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}
