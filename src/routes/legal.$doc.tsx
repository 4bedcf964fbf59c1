import { createFileRoute } from '@tanstack/react-router';
import { LegalPage } from '../features/auth/legal/legal-page.tsx';
import { loadArea } from '../lib/i18n.ts';

/** /legal/agreement and /legal/privacy: the user agreement and the privacy policy, for anyone (linked from registration). */
export const Route = createFileRoute('/legal/$doc')({ loader: () => loadArea('legal'), component: LegalPage });
