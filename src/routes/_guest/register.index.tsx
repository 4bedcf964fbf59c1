import { createFileRoute } from '@tanstack/react-router';
import { RegisterForm } from '../../features/auth/components/register-form.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_guest/register/')({ loader: () => loadArea('register'), component: () => <RegisterForm /> });
