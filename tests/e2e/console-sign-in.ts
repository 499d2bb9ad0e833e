import type { Page } from '@playwright/test';
import { createOperator } from '../../db/queries/operators';
import { expect } from './fixtures';

const PASSWORD = 'a long operator password';

/** A fresh admin in the server's database, signed in through the console's form; answers its email. */
export async function signIn(page: Page, db: Parameters<typeof createOperator>[0]): Promise<string> {
  const email = `admin-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await createOperator(db, { email, password: PASSWORD, role: 'admin' });
  await page.goto('/admin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  return email;
}
