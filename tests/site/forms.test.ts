/**
 * The site's forms: the footer newsletter, the contact form, and the sign-in screens
 * with their required fields and e-mail checks.
 */
import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../lib/browser.ts';

const site = useBrowser();

/** Records the answers to what the page sends to the site's API (its reads of settings are not sends). */
function apiAnswers(page: Page): Response[] {
  const answers: Response[] = [];
  page.on('response', (r) => {
    if (r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/api/')) answers.push(r);
  });
  return answers;
}

const unique = () => `site-test-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** Whether the browser's own validation holds the field back (required, type=email). */
const invalid = (page: Page, selector: string) =>
  page.evaluate(`!document.querySelector(${JSON.stringify(selector)}).checkValidity()`) as Promise<boolean>;

describe('newsletter', () => {
  it("subscribing shows '✅ Subscribed successfully!' and clears the field", async () => {
    const { page, errors } = await site.open('/');
    const answers = apiAnswers(page);
    const field = page.locator('#newsletter-email');
    expect(await field.getAttribute('type')).toBe('email');
    expect(await field.getAttribute('required')).not.toBeNull();

    // Empty and malformed addresses are held back by the browser: nothing is sent.
    await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
    expect(await invalid(page, '#newsletter-email')).toBe(true);
    await field.fill('not-an-address');
    await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
    expect(await invalid(page, '#newsletter-email')).toBe(true);
    expect(answers).toHaveLength(0);

    await field.fill(unique());
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/v1/newsletter'));
    await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
    const res = await answered;
    expect(res.status()).toBe(201);
    expect(await res.json()).toEqual({ ok: true });
    await page.locator('.newsletter [role="status"]', { hasText: '✅ Subscribed successfully!' }).waitFor();
    expect(await page.locator('.newsletter [role="status"]').textContent()).toBe('✅ Subscribed successfully!');
    expect(await field.inputValue()).toBe('');
    expect(errors).toEqual([]);
  });
});

describe('contact', () => {
  it('requires every field, and sending replaces the form with the thank-you text', async () => {
    const { page, errors } = await site.open('/contact');
    const answers = apiAnswers(page);
    for (const id of ['#contact-name', '#contact-email', '#contact-message']) {
      expect(await page.locator(id).getAttribute('required'), id).not.toBeNull();
    }
    expect(await page.locator('#contact-email').getAttribute('type')).toBe('email');

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    expect(await invalid(page, '#contact-name')).toBe(true);
    await page.getByLabel('Name', { exact: true }).fill('Site Test');
    await page.getByLabel('E-mail', { exact: true }).fill('not-an-address');
    await page.getByLabel('Message', { exact: true }).fill('A message from the site tests.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    expect(await invalid(page, '#contact-email')).toBe(true);
    expect(answers).toHaveLength(0);

    await page.getByLabel('E-mail', { exact: true }).fill(unique());
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/v1/contact'));
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    expect((await answered).status()).toBe(201);
    const thanks = page.locator('main [role="status"]');
    await thanks.waitFor();
    expect(await thanks.textContent()).toBe('Thank you! Your message has been sent. We will reply by e-mail.');
    expect(await page.locator('main form').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('login, signup and account', () => {
  // The sign-in provider (the Auth emulator here) refuses an unknown account, and a password too weak.
  it.each([
    ['/login', 'Login', 'Login', 'Login failed: ', '/signup', 'secret'],
    ['/signup', 'Create your account', 'Sign Up', 'Signup failed: ', '/login', '123'],
  ])(
    '%s: e-mail and password required, e-mail typed; a failure alerts the spec prefix',
    async (path, h1, submit, prefix, other, weakOrWrong) => {
      const { page, errors, dialogs } = await site.open(path);
      expect(await page.locator('main h1').textContent()).toBe(h1);
      const email = page.locator('main input#auth-email');
      const password = page.locator('main input#auth-password');
      expect(await email.getAttribute('type')).toBe('email');
      expect(await email.getAttribute('required')).not.toBeNull();
      expect(await password.getAttribute('type')).toBe('password');
      expect(await password.getAttribute('required')).not.toBeNull();
      expect(await page.locator(`main a[href="${other}"]`).count()).toBe(1);

      const button = page.locator('main form').getByRole('button', { name: submit, exact: true });
      await button.click();
      expect(await invalid(page, '#auth-email')).toBe(true);
      await email.fill('nobody');
      await password.fill(weakOrWrong);
      await button.click();
      expect(await invalid(page, '#auth-email')).toBe(true);
      expect(dialogs).toEqual([]);

      await email.fill('nobody@example.com');
      const dialog = page.waitForEvent('dialog');
      await button.click();
      await dialog;
      expect(dialogs).toHaveLength(1);
      expect(dialogs[0]!.startsWith(prefix)).toBe(true);
      expect(dialogs[0]!.length).toBeGreaterThan(prefix.length);
      expect(page.url()).toBe(`${site.base}${path}`);

      const google = page.waitForEvent('dialog');
      await page.getByRole('button', { name: 'Continue with Google', exact: true }).click();
      await google;
      expect(dialogs[1]!.startsWith('Google login failed: ')).toBe(true);
      // The browser logs the provider's refusal (a 400) as a failed resource; nothing else may fail.
      expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    },
  );

  it("the account page, signed out, reads 'Please log in to view your account.'", async () => {
    const { page, errors } = await site.open('/account');
    expect(await page.locator('main h1').textContent()).toBe('Account');
    expect(await page.locator('main').textContent()).toContain('Please log in to view your account.');
    // Signed out, the header offers Login and Signup.
    expect(await page.locator('header a[href="/login"]').textContent()).toBe('Login');
    expect(await page.locator('header a[href="/signup"]').textContent()).toBe('Signup');
    expect(errors).toEqual([]);
  });
});
