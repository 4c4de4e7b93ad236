import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, cspViolations, launchBrowser, settled, signedInPage } from './browser';

/**
 * Issue 55 in Chromium, against the built panel: an admin registers an integrator's webhook endpoint on the
 * Webhooks screen and is shown its signing secret once; the Notifications screen lists the deliveries it causes,
 * filtered by channel and status.
 */

const baseURL = inject('baseURL');
const ADMIN = { mobile: '9999999999', password: 'Admin@1234' };

let browser: Browser;
let page: Page;
/** Nothing listens here: deliveries to it fail and wait for their next attempt. */
const endpoint = `http://127.0.0.1:9/e2e-${Date.now().toString(36)}`;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await signedInPage(browser, baseURL, ADMIN);
});
afterAll(async () => {
  await browser?.close();
});

/** The table's rows (or the phone's cards) that name our endpoint. */
const ourRows = () => page.locator('tbody tr, ul.list-cards > li').filter({ hasText: endpoint });

describe('webhooks and notifications (admin)', () => {
  let secret = '';

  it('registers an endpoint for user.created and sees its secret once', async () => {
    await page.goto(`${baseURL}/webhooks/list`);
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await settled(page);
    await page.getByRole('button', { name: 'Register Endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Register Webhook Endpoint' });
    await dialog.getByRole('textbox', { name: 'URL' }).fill(endpoint);
    await dialog.getByRole('checkbox', { name: 'user.created' }).check();
    await dialog.getByRole('button', { name: 'Register Endpoint' }).click();

    const shown = page.getByRole('dialog', { name: 'Signing Secret' });
    await shown.waitFor();
    secret = (await shown.getByLabel('Signing Secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    await shown.getByRole('button', { name: 'Close' }).click();
    await shown.waitFor({ state: 'hidden' });

    // The list shows the endpoint and its events, never the secret: not now, not after a reload.
    await ourRows().first().waitFor();
    await expect.poll(() => ourRows().first().textContent()).toContain('user.created');
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await ourRows().first().waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it('sees the delivery a new user causes on the Notifications screen, by its filters', async () => {
    // A new employee raises user.created: its delivery to the endpoint is in the outbox.
    const stamp = Date.now().toString(36);
    const tehsil = (await api(page, 'tehsil/fetch?searchText=Sanganer')).json.result.tehsil[0];
    const created = await api(page, 'account/create', {
      type: 5,
      name: `webhook employee ${stamp}`,
      email: `webhook.${stamp}@example.in`,
      mobile: `7${String(Date.now()).slice(-9)}`,
      userName: `wh${stamp}`,
      districtId: tehsil.districtId._id,
      tehsilId: tehsil._id,
      password: 'Start@2026',
      confirmPassword: 'Start@2026',
    });
    expect(created.status).toBe(200);

    await page.goto(`${baseURL}/notifications/list`);
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    await ourRows().first().waitFor();
    await expect.poll(() => ourRows().first().textContent()).toContain('user.created');

    const choose = async (filter: string, option: string) => {
      await page.getByRole('combobox', { name: filter }).click();
      await page.getByRole('option', { name: option, exact: true }).click();
      await settled(page);
    };
    await choose('Channel', 'WEBHOOK');
    await ourRows().first().waitFor();
    await choose('Channel', 'SMS');
    await expect.poll(() => ourRows().count()).toBe(0);
    await choose('Channel', 'WEBHOOK');
    // Nothing listens at the endpoint: the delivery is not sent.
    await choose('Status', 'SENT');
    await expect.poll(() => ourRows().count()).toBe(0);
    await choose('Status', 'PENDING');
    await ourRows().first().waitFor();
    expect(cspViolations).toEqual([]);
  });

  it('deletes the endpoint again', async () => {
    const listed = await api(page, 'webhooks/fetch');
    const ours = (listed.json.result.webhooks as { _id: string; url: string }[]).find(
      (w) => w.url === endpoint,
    );
    expect(ours).toBeDefined();
    expect((await api(page, `webhooks/delete/${ours?._id}`, {})).status).toBe(200);
  });
});
