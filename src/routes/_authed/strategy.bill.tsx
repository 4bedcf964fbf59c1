import { createFileRoute } from '@tanstack/react-router';
import { BillPage } from '../../features/bots/components/bill-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/strategy/bill')({ loader: () => loadArea('bots'), component: BillPage });
