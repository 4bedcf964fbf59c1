import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { homeQueries } from '../home-data.ts';
import * as css from './home-banners.css.ts';

/** The home banners (GET /api/index/banners): a swipeable strip; nothing at all while loading or failing. */
export function HomeBanners() {
  const { t } = useLingui();
  const banners = useQuery(homeQueries.banners);
  if (!banners.data?.length) return null;
  return (
    <nav className={css.strip} aria-label={t`活动`} data-testid="home-banners">
      {banners.data.map((b) => (
        <Link key={b.id} to={b.link} className={css.banner[b.tone]}>
          <span className={css.title}>{b.title}</span>
          <span className={css.subtitle}>{b.subtitle}</span>
        </Link>
      ))}
    </nav>
  );
}
