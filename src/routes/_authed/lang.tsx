import { createFileRoute } from '@tanstack/react-router';
import { LangPage } from '../../features/settings/components/lang-page.tsx';

export const Route = createFileRoute('/_authed/lang')({ component: LangPage });
