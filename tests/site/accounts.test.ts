/**
 * Sign-in end to end (issue 6), in Chromium against the stack's Firebase Auth emulator: sign up, log
 * in, log out, the wrong-password alert, the header's name, the account page (name saved to the
 * Firebase profile, the history of a run made while signed in, the local history of an anonymous
 * visitor), and Google sign-in with a fake Google token (the real popup needs Google's servers).
 */
import { join } from 'node:path';
import { findTool } from '@quire/catalog';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { emulatorSignUp } from '../../gateway/test/firebase-emulator.ts';
import {
  launchBrowser,
  localStorageItem,
  openPage,
  pageWaitMs,
  visit,
  waitUntil,
  type OpenedPage,
  type OpenOptions,
} from '../lib/browser.ts';
import { corpusDir } from '../lib/corpus.ts';
import { settledStatus } from './site.ts';

const smallPdf = join(corpusDir, 'pdf', 'pdfminer-simple1.pdf');
const password = 'correct-horse-7';

let base: string;
let emulatorUrl: string;
let browser: Browser;
let opened: OpenedPage | undefined;
beforeAll(async () => {
  base = inject('baseUrl');
  const config = (await (await fetch(`${base}/api/v1/auth/config`)).json()) as {
    enabled: boolean;
    emulatorUrl: string | null;
  };
  expect(config.enabled).toBe(true);
  expect(config.emulatorUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  emulatorUrl = config.emulatorUrl!;
  browser = await launchBrowser();
});
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});
afterAll(async () => {
  await browser?.close();
});

const unique = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const localPart = (email: string) => email.split('@')[0]!;

async function open(path: string, options?: OpenOptions): Promise<Page> {
  opened = await openPage(browser, options);
  await visit(opened.page, `${base}${path}`);
  return opened.page;
}

/** The header's account link once the auth state is known: its text, or null when signed out. */
async function headerName(page: Page): Promise<string | null> {
  await waitUntil(
    page,
    `!document.querySelector('header .auth-links.pending') && !!document.querySelector('header .auth-links a')`,
    pageWaitMs,
    'the first auth state',
  );
  const link = page.locator('header a.account-link');
  return (await link.count()) ? await link.textContent() : null;
}

async function waitForHeaderName(page: Page, name: string): Promise<void> {
  await page.locator('header a.account-link', { hasText: name }).waitFor({ timeout: pageWaitMs });
  expect(await page.locator('header a.account-link').getAttribute('href')).toBe('/account');
}

async function submitAuthForm(page: Page, email: string, pass: string, button: 'Login' | 'Sign Up') {
  await page.locator('main input#auth-email').fill(email);
  await page.locator('main input#auth-password').fill(pass);
  await page.locator('main form').getByRole('button', { name: button, exact: true }).click();
}

/** Logs in through the login page and waits for the home page with the header's name. */
async function logIn(email: string): Promise<Page> {
  const page = await open('/login');
  await submitAuthForm(page, email, password, 'Login');
  await page.waitForURL(`${base}/`);
  await waitForHeaderName(page, localPart(email));
  return page;
}

describe('e-mail sign-in', () => {
  it('signs up, shows the part of the e-mail before the @, logs out and logs in again', async () => {
    const email = unique('ada');
    const page = await open('/signup');
    // Signed out, the header offers Login and Signup once the auth state is known.
    expect(await headerName(page)).toBeNull();
    await submitAuthForm(page, email, password, 'Sign Up');
    await page.waitForURL(`${base}/`);
    await waitForHeaderName(page, localPart(email));
    expect(await page.locator('header a[href="/login"]').count()).toBe(0);

    // A returning browser is signed in on any page after a reload, the tool pages included, and never
    // sees Login or Signup on the way (they stay hidden until the auth state is known).
    expect(await localStorageItem(page, 'quire.signedIn')).toBe('1');
    await page.addInitScript(`(() => {
      const look = () => {
        if (document.querySelector('header .auth-links:not(.pending) a[href="/login"]')) window.sawLogin = true;
        requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    })()`);
    await visit(page, `${base}/tools/rotate-pdf`);
    expect(await headerName(page)).toBe(localPart(email));
    expect(await page.evaluate('window.sawLogin === true')).toBe(false);

    await page.locator('header a.account-link').click();
    await page.waitForURL(`${base}/account`);
    await page.locator('main .account-email', { hasText: email }).waitFor();
    await page.locator('main').getByRole('button', { name: 'Logout', exact: true }).click();
    await page.waitForURL(`${base}/`);
    await page.locator('header a[href="/login"]', { hasText: 'Login' }).waitFor();
    expect(await headerName(page)).toBeNull();
    expect(await page.evaluate('window.sawLogin === true')).toBe(true); // the watch above does see it
    expect(await localStorageItem(page, 'quire.signedIn')).toBeNull();

    await visit(page, `${base}/login`);
    await submitAuthForm(page, email, password, 'Login');
    await page.waitForURL(`${base}/`);
    await waitForHeaderName(page, localPart(email));
    expect(opened!.dialogs).toEqual([]);
    expect(opened!.errors).toEqual([]);
  });

  it("a wrong password alerts 'Login failed: ' with the provider's message and stays on the page", async () => {
    const email = unique('bob');
    await emulatorSignUp(emulatorUrl, email, password);
    const page = await open('/login');
    const dialog = page.waitForEvent('dialog');
    await submitAuthForm(page, email, 'not-the-password', 'Login');
    await dialog;
    expect(opened!.dialogs).toHaveLength(1);
    expect(opened!.dialogs[0]).toMatch(/^Login failed: Firebase: .*\(auth\/[a-z-]+\)/);
    expect(page.url()).toBe(`${base}/login`);
    expect(await headerName(page)).toBeNull();
  });

  it("signing up an address that exists alerts 'Signup failed: ' with the provider's message", async () => {
    const email = unique('dup');
    await emulatorSignUp(emulatorUrl, email, password);
    const page = await open('/signup');
    const dialog = page.waitForEvent('dialog');
    await submitAuthForm(page, email, password, 'Sign Up');
    await dialog;
    expect(opened!.dialogs[0]).toMatch(/^Signup failed: Firebase: .*\(auth\/email-already-in-use\)/);
    expect(page.url()).toBe(`${base}/signup`);
  });
});

describe('sign-in problems in plain words', () => {
  /** The form's own message once the provider answered, with the spec's alert beside it. */
  async function problem(page: Page): Promise<string> {
    const alert = page.locator('main form [role="alert"]');
    await alert.waitFor({ timeout: pageWaitMs });
    return (await alert.textContent()) ?? '';
  }

  it("says why a login or a signup failed, as well as the alert with the provider's message", async () => {
    const email = unique('carol');
    await emulatorSignUp(emulatorUrl, email, password);
    let page = await open('/login');
    await submitAuthForm(page, unique('nobody'), password, 'Login');
    expect(await problem(page)).toBe('There is no account with this e-mail address. Check it, or sign up.');
    expect(opened!.dialogs[0]).toMatch(/^Login failed: Firebase: .*\(auth\/user-not-found\)/);

    await submitAuthForm(page, email, 'not-the-password', 'Login');
    await page.locator('main form [role="alert"]', { hasText: 'This password' }).waitFor();
    expect(await problem(page)).toBe('This password is not the one of this account. Try again, or reset it.');
    expect(await page.locator('main form [role="alert"]').count()).toBe(1);

    page = await open('/signup');
    await submitAuthForm(page, email, password, 'Sign Up');
    expect(await problem(page)).toBe(
      'An account already uses this e-mail address. Log in instead, or reset its password.',
    );
    await submitAuthForm(page, unique('weak'), '123', 'Sign Up');
    await page.locator('main form [role="alert"]', { hasText: 'too weak' }).waitFor();
    expect(opened!.dialogs.at(-1)).toMatch(/^Signup failed: Firebase: .*\(auth\/weak-password\)/);
    // Never the provider's raw wording in the form.
    expect(await page.locator('main form').textContent()).not.toMatch(/Firebase|auth\//);
  });

  it('on a phone in Arabic: a wrong password said in Arabic, right to left', async () => {
    const email = unique('dina');
    await emulatorSignUp(emulatorUrl, email, password);
    const page = await open('/login', { locale: 'ar', viewport: { width: 390, height: 844 } });
    await waitUntil(page, `document.documentElement.dir === 'rtl'`, pageWaitMs, 'the Arabic copy');
    await page.locator('main input#auth-email').fill(email);
    await page.locator('main input#auth-password').fill('not-the-password');
    await page.locator('main form button[type="submit"]').click();
    expect(await problem(page)).toBe('كلمة المرور هذه ليست كلمة مرور هذا الحساب. حاول مرة أخرى، أو أعد تعيينها.');
    expect(await page.locator('main form [role="alert"]').isVisible()).toBe(true);
  });

  it('sends a password reset e-mail, which the Auth emulator lists', async () => {
    const email = unique('erin');
    await emulatorSignUp(emulatorUrl, email, password);
    const page = await open('/login');
    const forgot = page.locator('main').getByRole('button', { name: 'Forgot your password?', exact: true });
    // Without an address, the form says what to do first.
    await forgot.click();
    expect(await problem(page)).toBe('Type your e-mail address above, then choose “Forgot your password?” again.');
    await page.locator('main input#auth-email').fill(email);
    await forgot.click();
    const sent = page.locator('main form [role="status"]', { hasText: 'We sent a link' });
    await sent.waitFor({ timeout: pageWaitMs });
    expect(await sent.textContent()).toBe(
      `We sent a link to choose a new password to \u2068${email}\u2069. It may take a minute to arrive.`,
    );
    const res = await fetch(`${emulatorUrl}/emulator/v1/projects/demo-quire/oobCodes`);
    const { oobCodes } = (await res.json()) as { oobCodes: { email: string; requestType: string }[] };
    expect(oobCodes.filter((c) => c.email === email).map((c) => c.requestType)).toEqual(['PASSWORD_RESET']);
    expect(opened!.dialogs).toEqual([]);
  });

  it('logs out from the header', async () => {
    const email = unique('finn');
    await emulatorSignUp(emulatorUrl, email, password);
    const page = await logIn(email);
    await page.locator('header').getByRole('button', { name: 'Log out', exact: true }).click();
    await page.locator('header .auth-links a[href="/login"]').waitFor({ timeout: pageWaitMs });
    expect(await page.locator('header a.account-link').count()).toBe(0);
    expect(await localStorageItem(page, 'quire.signedIn')).toBeNull();
    expect(opened!.errors).toEqual([]);
  });
});

describe('the account page', () => {
  it('saves the name to the profile (kept after a reload), with an initials avatar', async () => {
    const email = unique('grace');
    await emulatorSignUp(emulatorUrl, email, password);
    const page = await logIn(email);
    await visit(page, `${base}/account`);
    await page.locator('main .account-email', { hasText: email }).waitFor();
    const avatar = page.locator('main img.avatar');
    expect(await avatar.getAttribute('alt')).toBe('Profile picture');
    expect(decodeURIComponent((await avatar.getAttribute('src')) ?? '')).toMatch(
      /^data:image\/svg\+xml,.*>G\w?<\/text>/,
    );

    await page.locator('#account-name').fill('Grace Hopper');
    await page.locator('main').getByRole('button', { name: 'Save name', exact: true }).click();
    await page.locator('main [role="status"]', { hasText: 'Saved.' }).waitFor();
    // The header keeps the e-mail's part before the @ (spec), whatever the name.
    expect(await page.locator('header a.account-link').textContent()).toBe(localPart(email));

    await visit(page, `${base}/account`);
    await page.locator('main .account-email', { hasText: email }).waitFor();
    expect(await page.locator('#account-name').inputValue()).toBe('Grace Hopper');
    expect(decodeURIComponent((await avatar.getAttribute('src')) ?? '')).toContain('>GH</text>');
    expect(opened!.errors).toEqual([]);
  });

  it('lists a tool run made while signed in, newest first, with the tool name and date', async () => {
    const email = unique('hist');
    await emulatorSignUp(emulatorUrl, email, password);
    const page = await logIn(email);
    const calls: (string | undefined)[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api.php')) calls.push(r.headers().authorization);
    });
    await visit(page, `${base}/tools/rotate-pdf`);
    expect(await headerName(page)).toBe(localPart(email));
    await page.locator('.widget input[type="file"]').setInputFiles(smallPdf);
    await page.locator('.widget').getByRole('button', { name: 'Convert', exact: true }).click();
    expect(await settledStatus(page)).toBe('Success');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]*$/);
    const result = await page.locator('.widget .result a').getAttribute('href');
    // A signed-in user's runs are the gateway's to keep, not this browser's.
    expect(await localStorageItem(page, 'quire.history')).toBeNull();

    await visit(page, `${base}/account`);
    const rows = page.locator('main table.history tbody tr');
    await rows.first().waitFor({ timeout: pageWaitMs });
    expect(await rows.count()).toBe(1);
    const cells = (await rows.first().locator('td').allTextContents()).map((s) => s.trim());
    expect(cells[0]).toBe(findTool('rotate-pdf')!.name);
    const when = await rows.first().locator('time').getAttribute('datetime');
    expect(Math.abs(Date.parse(when!) - Date.now())).toBeLessThan(120_000);
    expect(cells[1]).toMatch(/\d/);
    // The result is linked while it lives (a short time in the test stack), then marked expired.
    const link = rows.first().locator('a');
    if (await link.count()) expect(await link.getAttribute('href')).toBe(result);
    else expect(cells[2]).toBe('Expired');
    expect(await page.locator('main table.history th').allTextContents()).toEqual(['Tool', 'Date', 'Result']);
    expect(opened!.errors).toEqual([]);
  });

  it('lists the workflows the user saved, each a link that opens it with its options', async () => {
    const email = unique('flows');
    await emulatorSignUp(emulatorUrl, email, password);
    const page = await logIn(email);
    await visit(page, `${base}/workflow-builder`);
    const builder = page.locator('div.workflow');
    await builder.getByRole('button', { name: 'Add Rotate PDF', exact: true }).click();
    await builder.locator('details.step-options > summary').click();
    await builder.getByLabel('Rotation (clockwise)', { exact: true }).selectOption('270');
    await builder.getByLabel('Workflow name', { exact: true }).fill('Turn left');
    await builder.getByRole('button', { name: 'Save and get a link', exact: true }).click();
    const link = await builder.getByLabel('Link to this workflow with its options:', { exact: true }).inputValue();

    await visit(page, `${base}/account`);
    const item = page.locator('main ul.my-workflows li');
    await item.first().waitFor({ timeout: pageWaitMs });
    expect(await item.count()).toBe(1);
    expect((await item.first().textContent())?.replace(/\s+/g, ' ').trim()).toBe('Turn left Rotate PDF');
    expect(new URL(link).pathname).toBe(await item.first().locator('a').getAttribute('href'));
    await item.first().locator('a').click();
    await page.locator('ol.workflow-steps').waitFor();
    await page.locator('details.step-options > summary').click();
    expect(await page.getByLabel('Rotation (clockwise)', { exact: true }).inputValue()).toBe('270');
    expect(opened!.errors).toEqual([]);
  });

  it("keeps an anonymous visitor's runs in this browser and shows them when signed out", async () => {
    const page = await open('/tools/rotate-pdf');
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    expect(await headerName(page)).toBeNull();
    await page.locator('.widget input[type="file"]').setInputFiles(smallPdf);
    await page.locator('.widget').getByRole('button', { name: 'Convert', exact: true }).click();
    expect(await settledStatus(page)).toBe('Success');
    // A visitor who never signed in loads nothing of sign-in on a tool page.
    expect(requests.filter((p) => p.startsWith('/api/v1/auth'))).toEqual([]);
    const records = JSON.parse((await localStorageItem(page, 'quire.history')) ?? '[]') as Record<string, string>[];
    expect(records).toEqual([{ email: '', tool: 'rotate-pdf', date: expect.any(String) }]);

    await visit(page, `${base}/account`);
    await page.locator('main h2', { hasText: 'Tools used in this browser' }).waitFor();
    expect(await page.locator('main').textContent()).toContain('Please log in to view your account.');
    expect(await page.locator('main table.history tbody td').first().textContent()).toBe(findTool('rotate-pdf')!.name);
    expect(opened!.errors).toEqual([]);
  });
});

describe('Google sign-in', () => {
  it('signs in with a Google credential (a fake Google ID token on the emulator)', async () => {
    const id = `${Date.now()}${Math.random().toString(36).slice(2, 6)}`;
    const email = `g${id}@example.com`;
    const page = await open('/login');
    await waitUntil(page, `typeof window.quireTestSignInWithGoogle === 'function'`, pageWaitMs, 'the test hook');
    const token = JSON.stringify({ sub: `g-${id}`, email, email_verified: true, name: 'Gee Oogle' });
    await page.evaluate(`window.quireTestSignInWithGoogle(${JSON.stringify(token)})`);
    await waitForHeaderName(page, localPart(email));

    await visit(page, `${base}/account`);
    await page.locator('main .account-email', { hasText: email }).waitFor();
    expect(await page.locator('#account-name').inputValue()).toBe('Gee Oogle');
    expect(opened!.errors).toEqual([]);
  });

  it("the Google button on the emulator alerts 'Google login failed: ' with the reason", async () => {
    const page = await open('/login');
    expect(await headerName(page)).toBeNull();
    const dialog = page.waitForEvent('dialog');
    await page.getByRole('button', { name: 'Continue with Google', exact: true }).click();
    await dialog;
    expect(opened!.dialogs[0]).toMatch(/^Google login failed: .*Google/);
    expect(opened!.errors).toEqual([]);
  });
});
