import { Trans } from '@lingui/react/macro';
import * as css from './blocks.css.ts';

/** Previous / next for a paginated list (every list is paginated; 10 per page by default). */
export function Pager({ page, pageSize, total, onPage }: { page: number; pageSize: number; total: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav className={css.pager} aria-label="pagination">
      <button type="button" className={css.smallButton} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <Trans>上一页</Trans>
      </button>
      <span>
        {page} / {pages}
      </span>
      <button type="button" className={css.smallButton} disabled={page >= pages} onClick={() => onPage(page + 1)}>
        <Trans>下一页</Trans>
      </button>
    </nav>
  );
}
