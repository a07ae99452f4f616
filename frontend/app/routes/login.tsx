import { AuthForm } from '../components/AuthForm.tsx';
import { english } from '../i18n/dictionary.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta() {
  return pageMeta({
    title: `${english.auth.loginTitle} – Quire`,
    description: english.auth.loginDescription,
    path: '/login',
  });
}

export default function Login() {
  return <AuthForm mode="login" />;
}
