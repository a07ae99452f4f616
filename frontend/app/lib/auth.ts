/**
 * Sign-in with Firebase Authentication, as the pages use it: a tiny store of the auth state, and the
 * provider's operations. The gateway says at run time whether sign-in is set up (`/api/v1/auth/config`),
 * so one build serves every deployment. The Firebase SDK is never part of a page's first JavaScript: it
 * is imported after hydration, on the sign-in and account pages, and elsewhere only in a browser that
 * has signed in before (a flag in local storage).
 */
import { useSyncExternalStore } from 'react';
import type { FirebaseApp } from 'firebase/app';
import type { Auth, User as FirebaseUser } from 'firebase/auth';

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

/** What the gateway says about sign-in. */
export interface AuthConfig {
  enabled: boolean;
  apiKey: string;
  authDomain: string;
  projectId: string;
  emulatorUrl: string | null;
}

export class AuthUnavailable extends Error {
  constructor() {
    super('Sign-in is not set up on this site.');
  }
}

/** Google's popup needs Google's servers, which the local emulator stands in for only for e-mail sign-in. */
export class GoogleUnavailable extends Error {
  constructor() {
    super('Google sign-in needs Google’s servers; this copy of the site signs in with its local emulator.');
  }
}

declare global {
  interface Window {
    /** On the Auth emulator only: signs in with a fake Google ID token, as the popup would. */
    quireTestSignInWithGoogle?: (idToken: string) => Promise<void>;
  }
}

/** The pages that need the auth state whoever visits them. */
export const authPages = ['/login', '/signup', '/account'];

const flagKey = 'quire.signedIn';
const loading: AuthState = { status: 'loading', user: null };
const signedOut: AuthState = { status: 'signed-out', user: null };

let state: AuthState = loading;
const listeners = new Set<() => void>();

function set(next: AuthState): void {
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
    return localStorage.getItem(flagKey) === '1';
  } catch {
    return false;
  }
}

function remember(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(flagKey, '1');
    else localStorage.removeItem(flagKey);
  } catch {
    // private mode: the SDK then loads only on the sign-in pages
  }
}

function toUser(u: FirebaseUser): User {
  return { uid: u.uid, email: u.email ?? '', displayName: u.displayName, photoURL: u.photoURL };
}

type AuthModule = typeof import('firebase/auth');
interface Sdk {
  app: FirebaseApp;
  auth: Auth;
  mod: AuthModule;
  config: AuthConfig;
}

let sdk: Promise<Sdk | null> | undefined;

async function readConfig(): Promise<AuthConfig | null> {
  try {
    const res = await fetch('/api/v1/auth/config');
    return res.ok ? ((await res.json()) as AuthConfig) : null;
  } catch {
    return null;
  }
}

/** Reads the settings and, when sign-in is set up, loads and starts the SDK (once). */
function loadSdk(): Promise<Sdk | null> {
  sdk ??= (async () => {
    const config = await readConfig();
    if (!config?.enabled) return null;
    const [{ initializeApp }, mod] = await Promise.all([import('firebase/app'), import('firebase/auth')]);
    const app = initializeApp({ apiKey: config.apiKey, authDomain: config.authDomain, projectId: config.projectId });
    const auth = mod.getAuth(app);
    if (config.emulatorUrl) {
      mod.connectAuthEmulator(auth, config.emulatorUrl, { disableWarnings: true });
      // The tests' stand-in for Google's popup, which needs Google's servers: never on a real project.
      window.quireTestSignInWithGoogle = async (idToken: string) => {
        await mod.signInWithCredential(auth, mod.GoogleAuthProvider.credential(idToken));
      };
    }
    mod.onAuthStateChanged(auth, (user) => {
      remember(user !== null);
      set(user ? { status: 'signed-in', user: toUser(user) } : signedOut);
    });
    return { app, auth, mod, config };
  })().catch(() => null);
  return sdk;
}

/**
 * Starts sign-in after hydration: always on the pages that need it (`needed`), elsewhere only in a
 * browser that has signed in before; otherwise the visitor is signed out without loading anything.
 */
export function startAuth(needed: boolean): void {
  if (!sdk && !needed && !hasSignedInBefore()) {
    if (state.status === 'loading') set(signedOut);
    return;
  }
  void loadSdk().then((loaded) => {
    if (!loaded && state.status === 'loading') set(signedOut);
  });
}

async function ready(): Promise<Sdk> {
  const loaded = await loadSdk();
  if (!loaded) throw new AuthUnavailable();
  return loaded;
}

export async function signIn(email: string, password: string): Promise<void> {
  const { auth, mod } = await ready();
  await mod.signInWithEmailAndPassword(auth, email, password);
}

export async function signUp(email: string, password: string): Promise<void> {
  const { auth, mod } = await ready();
  await mod.createUserWithEmailAndPassword(auth, email, password);
}

export async function signInWithGoogle(): Promise<void> {
  const { auth, mod, config } = await ready();
  if (config.emulatorUrl) throw new GoogleUnavailable();
  await mod.signInWithPopup(auth, new mod.GoogleAuthProvider());
}

export async function signOut(): Promise<void> {
  const { auth, mod } = await ready();
  await mod.signOut(auth);
}

/** Saves the display name to the Firebase profile. */
export async function updateDisplayName(name: string): Promise<void> {
  const { auth, mod } = await ready();
  const user = auth.currentUser;
  if (!user) throw new AuthUnavailable();
  await mod.updateProfile(user, { displayName: name.trim() || null });
  // A profile change is not an auth state change: the store is told here.
  set({ status: 'signed-in', user: toUser(user) });
}

export function isSignedIn(): boolean {
  return state.status === 'signed-in';
}

/** The signed-in user's ID token for the gateway (`Authorization: Bearer`), or null when signed out. */
export async function idToken(): Promise<string | null> {
  if (state.status !== 'signed-in' || !sdk) return null;
  const loaded = await sdk;
  return (await loaded?.auth.currentUser?.getIdToken()) ?? null;
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

/** Up to two initials for the generated avatar: from the name, else from the e-mail. */
export function initialsOf(user: Pick<User, 'email' | 'displayName'>): string {
  const words = (user.displayName?.trim() || shortName(user)).split(/[\s._-]+/u).filter(Boolean);
  const letters = words.map((w) => [...w].find((c) => /[\p{L}\p{N}]/u.test(c)) ?? '').filter(Boolean);
  return (letters.length > 1 ? letters[0]! + letters[letters.length - 1]! : (letters[0] ?? '?')).toUpperCase();
}

/** A generated avatar: the initials on a colour picked from the e-mail, as an SVG data URL. */
export function initialsAvatar(user: Pick<User, 'email' | 'displayName'>): string {
  let hash = 0;
  for (const c of user.email) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  const hue = hash % 360;
  const text = initialsOf(user).replace(/[&<>'"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const svg =
    `<svg xmlns='http://www.w3.org/2000/svg' width='96' height='96' viewBox='0 0 96 96'>` +
    `<rect width='96' height='96' rx='48' fill='hsl(${hue} 55% 38%)'/>` +
    `<text x='48' y='48' dy='0.35em' text-anchor='middle' font-family='system-ui, sans-serif' font-size='38' fill='#fff'>${text}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
