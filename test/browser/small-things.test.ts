import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../flags.js';
import { adminApi } from './admin-api.js';
import { PHONE, signIn, startUi, type UiHarness } from './ui.js';

let ui: UiHarness;
beforeAll(async () => {
  ui = await startUi();
  await flags(ui.server).create('small');
});
afterAll(() => ui?.close());

describe('small things a review found', () => {
  it('shows every tab of a flag on a phone, the last ones too', async () => {
    const page = await ui.newPage(PHONE);
    await signIn(page, 'admin', 'unleash4all', '/projects/default/features/small');
    const tabs = page.getByRole('navigation', { name: 'Parts of the flag' }).getByRole('link');
    await tabs.first().waitFor();
    for (const tab of await tabs.all()) {
      const box = (await tab.boundingBox())!;
      expect(box.x + box.width, (await tab.textContent())!).toBeLessThanOrEqual(PHONE.width);
    }
    await page.close();
  });

  it('opens a project from anywhere on its card, not only its title', async () => {
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects');
    // Low on the card, away from its title.
    const card = page.locator('.project-card').filter({ hasText: 'Default' });
    const box = (await card.boundingBox())!;
    await page.mouse.click(box.x + 20, box.y + box.height - 15);
    await page.getByRole('heading', { level: 1, name: 'Default' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/projects/default');
    await page.close();
  });
});

describe('fields side by side', () => {
  it('line up by their labels, a hint or a taller control under one of them or not', async () => {
    await adminApi(ui.server).send(
      'PUT',
      '/api/admin/projects/default/features/small/environments/development/variants',
      [
        {
          name: 'blue',
          weight: 1000,
          weightType: 'variable',
          stickiness: 'default',
          payload: { type: 'json', value: '{}' },
        },
      ],
    );
    const page = await ui.newPage();
    await signIn(page, 'admin', 'unleash4all', '/projects/default/features/small/variants');
    await page.getByRole('button', { name: 'Edit variants in development' }).click();
    const top = async (label: string) => (await page.getByText(label, { exact: true }).boundingBox())!.y;
    expect(await top('Payload value')).toBe(await top('Payload'));
    await page.goto('/projects/default');
    await page.getByRole('row').nth(1).waitFor();
    // Fields that share a row (their boxes overlap in height) have their labels at one height.
    const misaligned = await page.evaluate(`(() => {
      const fields = [...document.querySelectorAll('.filters .field:not(.field-checkbox)')]
        .filter((f) => f.offsetParent !== null)
        .map((f) => {
          const box = f.getBoundingClientRect();
          const label = f.querySelector('label');
          return { top: box.top, bottom: box.bottom, label: label.getBoundingClientRect().top, name: label.textContent };
        });
      const out = [];
      for (const a of fields)
        for (const b of fields)
          if (a.name < b.name && a.top < b.bottom && b.top < a.bottom && Math.abs(a.label - b.label) > 1)
            out.push(a.name + ' / ' + b.name);
      return out;
    })()`);
    expect(misaligned).toEqual([]);
    await page.close();
  });
});

// Last: it changes the admin's password.
describe('an Admin on the default password', () => {
  it('is reminded to change it until they do', async () => {
    const page = await ui.newPage();
    await signIn(page);
    const reminder = page.locator('.banner').filter({ hasText: 'default password' });
    await reminder.waitFor();
    await reminder.getByRole('link', { name: 'Change your password' }).click();
    const form = page.getByRole('form', { name: 'Change your password' });
    await form.getByLabel('Current password').fill('unleash4all');
    await form.getByLabel('New password', { exact: true }).fill('Better-Secret-42');
    await form.getByLabel('New password, again').fill('Better-Secret-42');
    await form.getByRole('button', { name: /Change password/ }).click();
    await reminder.waitFor({ state: 'detached' });

    const again = await ui.newPage();
    await signIn(again, 'admin', 'Better-Secret-42');
    await again.getByRole('heading', { level: 1 }).waitFor();
    expect(await again.getByText('You signed in with the default password').count()).toBe(0);
    await again.close();
    await page.close();
  });
});
