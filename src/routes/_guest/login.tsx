import { createFileRoute } from '@tanstack/react-router';
import { LoginForm } from '../../features/auth/components/login-form.tsx';

export const Route = createFileRoute('/_guest/login')({ component: LoginForm });
