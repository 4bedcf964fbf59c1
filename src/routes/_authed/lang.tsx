import { createFileRoute } from '@tanstack/react-router';
import { LangPage } from '../../features/settings/components/lang-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/lang')({ loader: () => loadArea('settings'), component: LangPage });
