/**
 * The visitor's sign-in state as every page shows it: a tiny store the header reads. Firebase
 * Authentication itself (`sign-in.ts`) is never part of a page's first JavaScript: it is imported after
 * hydration, on the sign-in and account pages, and elsewhere only in a browser that has signed in
 * before (a flag in local storage).
 */
import { useSyncExternalStore } from 'react';

export interface User {
  uid: string;
  email: string;
  displayName: string | null;
  photoURL: string | null;
}

export interface AuthState {
  status: 'loading' | 'signed-out' | 'signed-in';
  user: User | null;
}

/** The pages that need the auth state whoever visits them. */
export const authPages = ['/login', '/signup', '/account'];

/** The local-storage flag of a browser someone is signed in on. */
export const signedInFlag = 'quire.signedIn';
const loading: AuthState = { status: 'loading', user: null };
export const signedOut: AuthState = { status: 'signed-out', user: null };

let state: AuthState = loading;
const listeners = new Set<() => void>();

/** Sets the auth state: signed out here, else as Firebase reports it (`sign-in.ts`). */
export function setAuthState(next: AuthState): void {
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The auth state: loading while prerendering and hydrating, then signed out or signed in. */
export function useAuth(): AuthState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => loading,
  );
}

function hasSignedInBefore(): boolean {
  try {
    return localStorage.getItem(signedInFlag) === '1';
  } catch {
    return false;
  }
}

let signIn: Promise<typeof import('./sign-in.ts') | null> | undefined;

/**
 * Starts sign-in after hydration: always on the pages that need it (`needed`), elsewhere only in a
 * browser that has signed in before; otherwise the visitor is signed out without loading anything.
 */
export function startAuth(needed: boolean): void {
  if (!signIn && !needed && !hasSignedInBefore()) {
    if (state.status === 'loading') setAuthState(signedOut);
    return;
  }
  signIn ??= import('./sign-in.ts').catch(() => null);
  void signIn
    .then((module) => module?.loadSdk() ?? null)
    .then((loaded) => {
      if (!loaded && state.status === 'loading') setAuthState(signedOut);
    });
}

export function isSignedIn(): boolean {
  return state.status === 'signed-in';
}

/** The signed-in user's ID token for the gateway (`Authorization: Bearer`), or null when signed out. */
export async function idToken(): Promise<string | null> {
  if (state.status !== 'signed-in' || !signIn) return null;
  return (await signIn)?.currentIdToken() ?? null;
}

/** The `Authorization` header for a gateway call: empty when signed out. */
export async function authHeaders(): Promise<Record<string, string>> {
  const token = await idToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** The header's name for a user: the part of the e-mail before the @. */
export function shortName(user: Pick<User, 'email'>): string {
  return user.email.split('@')[0] ?? user.email;
}
