import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
  await flags(ui.server).create('numbers');
});
afterAll(() => ui?.close());

describe('a validation error of the server', () => {
  it('is shown beside the field it names, and nothing typed is lost', async () => {
    const page = await ui.newPage();
    await signIn(
      page,
      'admin',
      'unleash4all',
      '/projects/default/features/numbers/strategies/new?environment=development',
    );
    await page.getByLabel('Rollout (%)').fill('40');
    await page.getByLabel('Title (optional)').fill('Big accounts');
    await page.getByRole('tab', { name: 'Targeting' }).click();
    await page.getByRole('button', { name: 'Add constraint' }).click();
    const constraint = page.getByRole('group', { name: 'Constraint 1' });
    await constraint.getByLabel('Operator').selectOption('NUM_GT');
    const value = constraint.getByLabel('Value');
    await value.fill('ten');
    // Saved from another tab: the problem's tab comes back, saying it has one.
    await page.getByRole('tab', { name: 'General' }).click();
    await page.getByRole('button', { name: 'Add strategy' }).click();

    await page.getByRole('alert').waitFor();
    const targeting = page.getByRole('tab', { name: /^Targeting/ });
    await expect.poll(() => targeting.getAttribute('aria-selected')).toBe('true');
    expect(await targeting.textContent()).toBe('Targeting1 problem');
    expect(await page.getByRole('alert').textContent()).toBe('The field marked below needs a change.');
    expect(await value.getAttribute('aria-invalid')).toBe('true');
    const described = (await value.getAttribute('aria-describedby'))!.split(' ');
    const message = await page
      .locator(`[id="${described.find((id) => id.endsWith('-error'))}"]`)
      .textContent();
    expect(message).toContain('"ten" is not one');
    expect(await value.inputValue()).toBe('ten');
    expect(await page.getByLabel('Rollout (%)').inputValue()).toBe('40');
    expect(await page.getByLabel('Title (optional)').inputValue()).toBe('Big accounts');

    await value.fill('10');
    await page.getByRole('button', { name: 'Add strategy' }).click();
    await page.getByRole('heading', { level: 1, name: 'numbers' }).waitFor();
    await page.close();
  });

  it('names the field of a taken project id', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/create-project');
    await page.getByLabel('Id', { exact: true }).fill('default');
    await page.getByLabel('Name').fill('Another default');
    await page.getByRole('button', { name: 'Create project' }).click();
    const id = page.getByLabel('Id', { exact: true });
    await page.waitForSelector('input[aria-invalid=true]');
    expect(await id.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.field-invalid .field-error').textContent()).toContain('already exists');
    expect(await page.getByLabel('Name').inputValue()).toBe('Another default');
    await page.close();
  });

  it('speaks the user’s language beside the field: a variant over 100 % says so in percent', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/default/features/numbers/variants');
    await page.getByRole('button', { name: 'Edit variants in development' }).click();
    await page.getByRole('button', { name: 'Add variant' }).click();
    const variant = page.getByRole('group', { name: 'Variant 1' });
    await variant.getByLabel('Name').fill('big');
    await variant.getByLabel('Weight').selectOption('fix');
    await variant.getByLabel('Percent').fill('120');
    await page.getByRole('button', { name: 'Save variants' }).click();
    await page.waitForSelector('input[aria-invalid=true]');
    expect(await page.locator('.field-invalid .field-error').textContent()).toBe('At most 100 %.');
    await page.close();
  });
});

describe('a form that knows the rule', () => {
  it('checks before sending, and suggests the project id from its name', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/create-project');
    const sent: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && sent.push(r.url()));
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('alert').getByText('The 2 fields marked below need a change.').waitFor();
    expect(await page.locator('.field-invalid .field-error').allTextContents()).toEqual([
      'Required.',
      'Required.',
    ]);
    expect(sent).toEqual([]);

    await page.getByLabel('Name').fill('Web Shop (EU)!');
    const id = page.getByLabel('Id', { exact: true });
    expect(await id.inputValue()).toBe('web-shop-eu');
    await id.fill('web shop');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('alert').getByText('The field marked below needs a change.').waitFor();
    expect(await page.locator('.field-invalid .field-error').textContent()).toBe(
      "Only letters, digits, '-', '_' and '.', without spaces.",
    );
    expect(sent).toEqual([]);
    // Typed in its own right, the id no longer follows the name.
    await page.getByLabel('Name').fill('Web Shop');
    expect(await id.inputValue()).toBe('web shop');
    await id.fill('web-shop');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { level: 1, name: 'Web Shop' }).waitFor();
    await page.close();
  });
});
