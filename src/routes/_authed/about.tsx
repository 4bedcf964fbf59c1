import { createFileRoute } from '@tanstack/react-router';
import { AboutPage } from '../../features/settings/components/about-page.tsx';

export const Route = createFileRoute('/_authed/about')({ component: AboutPage });
