import { AuthForm } from '../components/AuthForm.tsx';
import { english } from '../i18n/dictionary.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta() {
  return pageMeta({
    title: `${english.auth.signupTitle} – Quire`,
    description: english.auth.signupDescription,
    path: '/signup',
  });
}

export default function Signup() {
  return <AuthForm mode="signup" />;
}
