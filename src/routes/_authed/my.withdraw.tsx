import { createFileRoute } from '@tanstack/react-router';
import { WithdrawPage } from '../../features/funds/components/withdraw-page.tsx';

export const Route = createFileRoute('/_authed/my/withdraw')({ component: WithdrawPage });
