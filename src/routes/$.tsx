import { createFileRoute, redirect } from '@tanstack/react-router';

/** Any unknown path goes home (docs/product.md §2); the home guard then sends a guest on to /login. */
export const Route = createFileRoute('/$')({
  beforeLoad: () => {
    throw redirect({ to: '/', replace: true });
  },
});
