/** The provider's error codes the sign-in pages explain in the visitor's language, with their copy key. */
const problems = {
  'auth/user-not-found': 'userNotFound',
  'auth/wrong-password': 'wrongPassword',
  'auth/invalid-credential': 'invalidCredential',
  'auth/invalid-login-credentials': 'invalidCredential',
  'auth/weak-password': 'weakPassword',
  'auth/email-already-in-use': 'emailInUse',
  'auth/invalid-email': 'invalidEmail',
  'auth/missing-email': 'invalidEmail',
  'auth/too-many-requests': 'tooManyRequests',
  'auth/network-request-failed': 'network',
} as const;

export type AuthProblem = (typeof problems)[keyof typeof problems] | 'other';

/** What went wrong, from a Firebase error's `code` (`auth/…`); `other` for the rest. */
export function authProblem(error: unknown): AuthProblem {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && Object.hasOwn(problems, code) ? problems[code as keyof typeof problems] : 'other';
}
