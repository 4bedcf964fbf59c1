import type { ReactNode } from 'react';
import { Link, type LinkProps } from '@tanstack/react-router';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from './settings.css.ts';

/** One row of a settings list that opens another screen. */
export function MenuRow({ label, value, ...link }: { label: ReactNode; value?: ReactNode } & Pick<LinkProps, 'to' | 'params'>) {
  return (
    <li>
      <Link {...(link as LinkProps)} className={ui.listRow}>
        <span className={ui.listLabel}>{label}</span>
        {value !== undefined ? <span className={ui.listValue}>{value}</span> : null}
        <span className={css.chevron} aria-hidden="true">
          ›
        </span>
      </Link>
    </li>
  );
}
