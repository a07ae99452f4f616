import { AuthForm } from '../components/AuthForm.tsx';
import { auth } from '../i18n/en/auth.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta() {
  return pageMeta({
    title: `${auth.signupTitle} – Quire`,
    description: auth.signupDescription,
    path: '/signup',
  });
}

export default function Signup() {
  return <AuthForm mode="signup" />;
}
