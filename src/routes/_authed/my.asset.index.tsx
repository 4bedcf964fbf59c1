import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/_authed/my/asset/')({
  beforeLoad: () => {
    throw redirect({ to: '/my/asset/$type', params: { type: 'balance' }, replace: true });
  },
});
