import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { E2E_ADMIN } from './constants.mjs';

export { E2E_ADMIN };

/** Signs in through the login form and waits for the main layout. */
export async function signIn(page: Page, email = E2E_ADMIN.email, password = E2E_ADMIN.password) {
  await page.goto('/auth/login');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page.getByTestId('user-menu')).toBeVisible();
}

/**
 * Fails on any serious or critical accessibility violation of the current screen, as the user sees it once
 * it has settled: a toast or dialog still fading in has, for that moment, the contrast of its half-way
 * colours (seen as a color-contrast failure of a toast on a loaded machine). Endless animations (spinners)
 * are not waited for.
 */
export async function expectAccessible(page: Page) {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY),
    undefined,
    { timeout: 10_000 },
  );
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

/** A valid CUI (DOMAIN.md rule) registered in municipality 0101, from a random serial. */
export function randomCui(): string {
  for (;;) {
    const body = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
    let sum = 0;
    for (let i = 0; i < 8; i++) sum += Number(body[i]) * (i + 2);
    if (sum % 11 !== 10) return `${body}${sum % 11}0101`;
  }
}

export const test = base;
export { expect };
