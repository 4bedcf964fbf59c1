import { createFileRoute } from '@tanstack/react-router';
import { BillPage } from '../../features/bots/components/bill-page.tsx';

export const Route = createFileRoute('/_authed/strategy/bill')({ component: BillPage });
