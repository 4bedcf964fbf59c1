import { createFileRoute } from '@tanstack/react-router';
import { TestPage } from '../features/settings/components/test-page.tsx';

/** /test: a diagnostics page with no guard (spec §2). */
export const Route = createFileRoute('/test')({ component: TestPage });
