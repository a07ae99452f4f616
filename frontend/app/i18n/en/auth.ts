import { addEnglish } from '../dictionary.ts';

/** The sign-in pages’ English copy. It loads with the pages that show it, so that other pages never carry it. */
export const auth = addEnglish('auth', {
  loginTitle: 'Login',
  loginDescription: 'Sign in to Quire to see the history of your tools.',
  signupTitle: 'Create your account',
  signupDescription: 'A free Quire account keeps a history of the tools you use.',
  email: 'E-mail',
  password: 'Password',
  login: 'Login',
  signup: 'Sign Up',
  google: 'Continue with Google',
  or: 'or',
  noAccount: 'No account yet?',
  haveAccount: 'Already have an account?',
  loginFailed: 'Login failed: ',
  googleFailed: 'Google login failed: ',
  signupFailed: 'Signup failed: ',
  unavailable: 'Sign-in is not set up on this site.',
  googleUnavailable: 'Google sign-in needs Google’s servers; this copy of the site signs in with its local emulator.',
});
