import { createFileRoute } from '@tanstack/react-router';
import { AboutPage } from '../../features/settings/components/about-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/about')({ loader: () => loadArea('settings'), component: AboutPage });
