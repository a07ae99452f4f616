/**
 * Sign-in as the pages use it. The provider is set up by the site's configuration; until one is, every
 * call fails with a message the pages show after the spec's prefix.
 */
export interface User {
  email: string;
  displayName: string | null;
  photoURL: string | null;
}

export class AuthUnavailable extends Error {
  constructor() {
    super('Sign-in is not set up on this site.');
  }
}

export async function signIn(_email: string, _password: string): Promise<User> {
  throw new AuthUnavailable();
}

export async function signUp(_email: string, _password: string): Promise<User> {
  throw new AuthUnavailable();
}

export async function signInWithGoogle(): Promise<User> {
  throw new AuthUnavailable();
}

/** The header's name for a user: the part of the e-mail before the @. */
export function shortName(user: Pick<User, 'email'>): string {
  return user.email.split('@')[0] ?? user.email;
}
