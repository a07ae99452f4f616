/**
 * Sign-in with Firebase Authentication: the SDK and the provider's operations. The gateway says at run
 * time whether sign-in is set up (`/api/v1/auth/config`), so one build serves every deployment. This
 * module and the SDK load only when needed (see `auth.ts`).
 */
import type { FirebaseApp } from 'firebase/app';
import type { Auth, User as FirebaseUser } from 'firebase/auth';
import { setAuthState, signedInFlag, signedOut, type User } from './auth.ts';

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

function remember(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(signedInFlag, '1');
    else localStorage.removeItem(signedInFlag);
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
export function loadSdk(): Promise<Sdk | null> {
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
      setAuthState(user ? { status: 'signed-in', user: toUser(user) } : signedOut);
    });
    return { app, auth, mod, config };
  })().catch(() => null);
  return sdk;
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

/** Sends the provider's e-mail with a link to choose a new password. */
export async function sendPasswordReset(email: string): Promise<void> {
  const { auth, mod } = await ready();
  await mod.sendPasswordResetEmail(auth, email);
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
  setAuthState({ status: 'signed-in', user: toUser(user) });
}

/** The signed-in user's ID token, once the SDK has started. */
export async function currentIdToken(): Promise<string | null> {
  const loaded = await sdk;
  return (await loaded?.auth.currentUser?.getIdToken()) ?? null;
}
