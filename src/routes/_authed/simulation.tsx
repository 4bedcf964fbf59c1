import { createFileRoute } from '@tanstack/react-router';
import { SimulationPage } from '../../features/bots/components/simulation-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/simulation')({ loader: () => loadArea('bots'), component: SimulationPage });
