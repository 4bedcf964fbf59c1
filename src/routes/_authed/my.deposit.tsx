import { createFileRoute } from '@tanstack/react-router';
import { DepositPage } from '../../features/funds/components/deposit-page.tsx';

export const Route = createFileRoute('/_authed/my/deposit')({ component: DepositPage });
