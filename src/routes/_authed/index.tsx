import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { loadArea } from '../../lib/i18n.ts';

// Home's screen and data code come with the logged-in frame (../-authed-home.tsx), one file for both:
// the route tree (the /login entry) only holds the import.
const loadHome = () => import('../-authed-home.tsx');

export const Route = createFileRoute('/_authed/')({
  loader: () => Promise.all([loadArea('bots'), loadHome().then((m) => m.prefetchHome())]),
  component: lazyRouteComponent(loadHome, 'HomePage'),
  codeSplitGroupings: [['notFoundComponent']],
});
