import { AuthForm } from '../components/AuthForm.tsx';
import { auth } from '../i18n/en/auth.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta() {
  return pageMeta({
    title: `${auth.loginTitle} – Quire`,
    description: auth.loginDescription,
    path: '/login',
  });
}

export default function Login() {
  return <AuthForm mode="login" />;
}
