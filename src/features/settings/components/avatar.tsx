import * as css from './settings.css.ts';

/** The user's picture, or the first letter of the name when there is none. */
export function Avatar({ src, name }: { src: string; name: string }) {
  if (src) return <img className={css.avatar} src={src} alt="" width="56" height="56" />;
  return <span className={css.avatar} aria-hidden="true">{name.slice(0, 1).toUpperCase()}</span>;
}
