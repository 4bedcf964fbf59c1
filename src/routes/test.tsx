import { createFileRoute } from '@tanstack/react-router';
import { loadArea } from '../lib/i18n.ts';
import { TestPage } from '../features/settings/components/test-page.tsx';

/** /test: a diagnostics page with no guard (docs/product.md §2). */
export const Route = createFileRoute('/test')({ loader: () => loadArea('settings'), component: TestPage });
