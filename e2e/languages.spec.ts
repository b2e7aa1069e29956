import { readFileSync } from 'node:fs';
import { E2E_ADMIN } from './constants.mjs';
import { expect, expectAccessible, test } from './fixtures.ts';

/*
 * One journey per language (issue 27): with the `lang` cookie of each of the eight languages, the sign-in
 * page, a refusal the server words (wrong credentials), a rule checked in the browser by the domain schema
 * (empty password), the menu and the home screen read in that language, never in Spanish; Arabic reads right
 * to left and stays accessible. Expected texts come from the locale files, so a new wording needs no edit.
 */

const LANGUAGES = ['es', 'en', 'ar', 'ch', 'fr', 'gr', 'it', 'ru'] as const;
const HTML_LANG: Record<string, string> = { ch: 'zh', gr: 'de' };

type Tree = { [k: string]: string | Tree };
const locale = (folder: string, lang: string): Tree =>
  JSON.parse(readFileSync(new URL(`../apps/web/src/${folder}/locales/${lang}.json`, import.meta.url), 'utf8'));
const at = (tree: Tree, path: string): string => {
  const v = path.split('.').reduce<string | Tree | undefined>((t, k) => (typeof t === 'object' ? t[k] : undefined), tree);
  if (typeof v !== 'string') throw new Error(`sin texto en ${path}`);
  return v;
};

for (const lang of LANGUAGES) {
  test(`language ${lang}: sign-in refusals, menu and home in the language`, async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'lang', value: lang, url: baseURL! }]);
    const auth = locale('features/auth', lang);
    const shell = locale('shell', lang);
    const server = locale('lib/server-messages', lang);
    const spanishShell = locale('shell', 'es');

    await page.goto('/auth/login');
    await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[lang] ?? lang);
    await expect(page.locator('html')).toHaveAttribute('dir', lang === 'ar' ? 'rtl' : 'ltr');
    const email = page.getByLabel(at(auth, 'auth.email'));
    const password = page.getByRole('textbox', { name: at(auth, 'auth.password'), exact: true });
    const submit = page.getByRole('button', { name: at(auth, 'auth.submit') });

    // A rule of the domain's schema, checked in the browser, in the language.
    await email.fill(`nadie-${lang}@demo.aporta.local`);
    await submit.click();
    await expect(page.getByText(at(server, 'server.accounts.loginPasswordRequired'))).toBeVisible();

    // The server's refusal, sent with its key, in the language.
    await password.fill('Una-Clave-Equivocada-1');
    await submit.click();
    await expect(page.getByRole('alert').filter({ hasText: at(server, 'server.errors.INVALID_CREDENTIALS') })).toBeVisible();

    // Signed in: the menu and the home screen speak the language.
    await email.fill(E2E_ADMIN.email);
    await password.fill(E2E_ADMIN.password);
    await submit.click();
    await expect(page.getByTestId('user-menu')).toBeVisible();
    const menu = page.getByRole('navigation', { name: at(shell, 'shell.mainMenu') });
    await expect(menu).toBeVisible();
    await expect(page.getByPlaceholder(at(shell, 'shell.menuSearch'))).toBeVisible();
    if (lang !== 'es') {
      await expect(page.getByPlaceholder(at(spanishShell, 'shell.menuSearch'))).toHaveCount(0);
      await expect(menu.getByText(at(spanishShell, 'shell.mainMenu'), { exact: true })).toHaveCount(0);
    }
    await page.screenshot({ path: `../.test-output/languages/${lang}-home.png` });
    if (lang === 'ar') await expectAccessible(page);
  });
}
