import { createFileRoute } from '@tanstack/react-router';
import { SimulationPage } from '../../features/bots/components/simulation-page.tsx';

export const Route = createFileRoute('/_authed/simulation')({ component: SimulationPage });
