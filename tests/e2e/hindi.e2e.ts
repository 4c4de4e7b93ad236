import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REQUEST_METHODS, URL_DATA_IDENTIFIERS } from '../../src/shared/constants/catalog';
import { verhoeffDigit } from '../../src/shared/identity';
import { hi } from '../../src/web/i18n/hi';
import { launchBrowser, settled, signIn } from './browser';

/**
 * Issue 44, "Hindi, wholly": every screen of the panel, walked in Hindi by the admin and by a retailer, shows no
 * word in Latin script, neither on screen (the page's visible text) nor in an accessible name (aria-label, title,
 * placeholder, alt), except what the allow-list below lets through. The screens are panel.e2e.ts's SCREENS (plus
 * the retailer's home); the dialogs are three lists' create dialogs (as opened and sent empty), update status,
 * select product, a sale's receipt menu, an application, the TDS deposit, the transactions list's money dialogs,
 * the import's row errors and logout. Nothing is left out. A new screen is added here as it is to SCREENS.
 */

const baseURL = inject('baseURL');
const ADMIN = { mobile: '9999999999', password: 'Admin@1234' };
const RETAILER = { mobile: '9300000001', password: 'Demo@1234' };

/**
 * The words a Hindi screen may show in Latin script, by reason:
 * - the product's own name;
 * - 'English': the language menu names each language in its own script, so a Hindi reader can find English;
 * - PAN and IFSC: the names of these Indian identifiers, written so on the cards and cheques themselves;
 * - the names of file formats and their size unit, as the files and the operating system name them;
 * - the HTTP methods a product's partner call uses (GET, POST), typed as the partner documents them;
 * - the partner's brand, which the account types carry (PAYUSPRINT in 'PAYUSPRINT-SAVING').
 * Words with a digit in them are identifiers, not words (section 194H, form 26Q, a reference DEMO42AC07...).
 * Everything else allowed is data, collected as the walk goes (`DATA_FIELD`), or what the panel marks as a record
 * shown as the server stored it (`translate="no"`: a session's browser).
 */
const ALLOWED = new Set(
  [
    'Tierdesk',
    'English',
    'PAN',
    'IFSC',
    ...['CSV', 'PDF', 'PNG', 'JPEG', 'WebP', 'UTF', 'MB'],
    ...REQUEST_METHODS,
    ...new Set(URL_DATA_IDENTIFIERS.map((code) => code.split('-')[0])),
  ].map((word) => word.toLowerCase()),
);

/**
 * The fields of the API's answers that hold what people typed or were named: people's and places' names, user
 * names, emails, phone numbers, identity numbers, addresses and descriptions, the names of providers and products
 * (a partner's brand), references and codes a partner or a person gave, and record ids. Codes the panel must
 * translate (status, type, kind) are not among them.
 */
const DATA_FIELD =
  /^(_?id|\w*Id|name|userName|email|mobile|telephone|pan\w*|aadhar\w*|ifsc\w*|\w*Name|\w*Address|\w*Email|\w*Mobile|\w*Telephone|\w*Landmark|landmark|outletDescription|similarServiceDetails|education|documentNumber|accountNumber|remark|reason|note|description|\w*Code|url|product|reference)$/i;

/** The Latin-script words of a text; a word with a digit in it is an identifier (see ALLOWED) and left out. */
const latinWords = (text: string) =>
  (text.match(/[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*/g) ?? []).filter((word) => !/\d/.test(word));

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A page in Hindi for `user` (none: a visitor), and the words of data its API answers carried. */
async function hindiPage(user?: { mobile: string; password: string }) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const dataWords = new Set<string>();
  const collect = (value: unknown, key: string) => {
    if (typeof value === 'string') {
      if (DATA_FIELD.test(key)) for (const word of latinWords(value)) dataWords.add(word.toLowerCase());
    } else if (Array.isArray(value)) for (const item of value) collect(item, key);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) collect(v, k);
  };
  // The answers still being read: the words of what is on screen are all in `dataWords` once these are done.
  const reading = new Set<Promise<void>>();
  page.on('response', (response) => {
    if (!response.url().includes('/api/v1/')) return;
    if (!(response.headers()['content-type'] ?? '').includes('json')) return;
    const read = response
      .json()
      .then((body) => collect(body, ''))
      // An answer the page navigated away from has no body any more; its data is not on screen either.
      .catch(() => undefined)
      .finally(() => reading.delete(read));
    reading.add(read);
  });
  if (user) {
    await signIn(page, baseURL, user.mobile, user.password);
    await page.waitForURL(/\/home$/);
  } else await page.goto(`${baseURL}/auth`);
  // The stored language, read as the panel starts: every screen opened after this is in Hindi.
  await page.evaluate(() => localStorage.setItem('RaStore.locale', JSON.stringify('hi')));
  return { page, dataWords, read: () => Promise.all(reading) };
}

/** The Latin words on the page now (visible text and accessible names) that neither data nor ALLOWED explains. */
async function strayWords(page: Page, dataWords: Set<string>): Promise<string[]> {
  const { text, names, records } = await page.evaluate(() => {
    const names: string[] = [];
    const records = [...document.querySelectorAll('[translate=no]')].map((e) => e.textContent ?? '');
    for (const element of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt]'))
      for (const attribute of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = element.getAttribute(attribute);
        if (value) names.push(`${attribute}="${value}"`);
      }
    // biome-ignore lint/performance/useDomNodeTextContent: the visible text of the page, not the hidden text textContent includes
    return { text: document.body.innerText, names, records };
  });
  const recorded = new Set(records.flatMap(latinWords).map((word) => word.toLowerCase()));
  const stray = new Set<string>();
  const judge = (where: string, source: string) => {
    const words = latinWords(source).filter((word) => {
      const lower = word.toLowerCase();
      return !ALLOWED.has(lower) && !dataWords.has(lower) && !recorded.has(lower);
    });
    if (words.length) stray.add(`${where}: ${[...new Set(words)].join(' ')}`);
  };
  for (const line of text.split('\n')) judge('text', line);
  for (const name of names) {
    const value = name.slice(name.indexOf('"') + 1, -1);
    judge(name.slice(0, name.indexOf('=')), value);
  }
  return [...stray];
}

const firstRow = (page: Page) => page.locator('tbody tr').first();

/** A Hindi text with a placeholder (`%{name}`) as a pattern that matches it filled in. */
const filled = (template: string) =>
  new RegExp(`^${template.replace(/[.*+?^$()[\]{}|\\]/g, '\\$&').replace(/%\\\{\w+\\\}/g, '.+')}$`);

/**
 * An application as the public onboarding form sends it (the demo data has none), so the walk can open one.
 * Its texts are data the applicant typed (the API answers carry them into the allow-list).
 */
async function createLead() {
  const first = await fetch(`${baseURL}/api/v1/tehsil/fetch?searchText=Haveli`);
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
  const tehsil = (await first.json()).result.tehsil[0];
  const mobile = `6${String(Date.now()).slice(-9)}`;
  const place = { stateId: tehsil.stateId._id, districtId: tehsil.districtId._id, tehsilId: tehsil._id };
  const parts = {
    applicantInfo: { name: 'Hindi walk applicant', education: 'B.Com', gender: 'Male' },
    businessInfo: {
      establishmentName: 'Walk Mobile Point',
      outletAddress: 'Shop 4, Market Road',
      businessLandmark: 'Near bus stand',
      pincode: '411001',
      ...place,
      mobile,
      telephone: '020-2345678',
      email: `walk.${Date.now()}@example.in`,
      ownershipType: 'Owned',
      yearsInLocation: '5',
    },
    permanentAddress: {
      residentialAddress: 'Shop 4, Market Road',
      landmark: 'Near bus stand',
      permanentAddressPincode: '411001',
      permanentStateId: place.stateId,
      permanentDistrictId: place.districtId,
      permanentTehsilId: place.tehsilId,
      permanentMobile: mobile,
      permanentTelephone: '020-2345678',
      permanentEmail: 'walk@example.in',
    },
    otherBusinessInfo: {
      outletDescription: 'Mobile recharge',
      similarServiceDetails: 'None',
      panNumber: 'ABCDE1234F',
      aadharNumber: `23456789012${verhoeffDigit('23456789012')}`,
    },
    bankInfo: { bankName: 'State Bank', accountNumber: '123456789012', ifscCode: 'SBIN0001234' },
    identityProof: { type: 'PAN', documentNumber: 'ABCDE1234F' },
  };
  const form = new FormData();
  for (const [part, value] of Object.entries(parts)) form.append(part, JSON.stringify(value));
  form.append('leadType', 'RETAILER');
  form.append('picture', new Blob([PNG], { type: 'image/png' }), 'me.png');
  form.append('document', new Blob([PNG], { type: 'image/png' }), 'pan.png');
  const response = await fetch(`${baseURL}/api/v1/leads/create`, {
    method: 'POST',
    headers: { cookie, 'X-XSRF-TOKEN': decodeURIComponent(cookie.split('=')[1] ?? '') },
    body: form,
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

// A 1x1 PNG: the server judges a file's type from its bytes.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const heading = (page: Page) => page.getByRole('heading', { level: 1 }).first();

interface Screen {
  path: string;
  user?: 'admin' | 'retailer';
  /** What a person waits for before the screen is whole. */
  ready: (page: Page) => Locator;
}

/** Every screen (panel.e2e.ts's SCREENS), in Hindi; `:confirmed` is a confirmed sale the walk finds. */
const SCREENS: Screen[] = [
  { path: '/auth', ready: (page) => page.locator('form button[type=submit]') },
  { path: '/welcome', ready: heading },
  { path: '/onboarding/retailer', ready: heading },
  {
    path: '/home',
    user: 'admin',
    ready: (page) => page.getByTestId('tile-CUSTOMER').filter({ hasText: /\d/ }),
  },
  { path: '/master/distributor/list', user: 'admin', ready: firstRow },
  { path: '/distributor/list', user: 'admin', ready: firstRow },
  { path: '/employee/list', user: 'admin', ready: firstRow },
  { path: '/retailer/list', user: 'admin', ready: firstRow },
  { path: '/customer/list', user: 'admin', ready: firstRow },
  { path: '/provider/list', user: 'admin', ready: firstRow },
  { path: '/product/list', user: 'admin', ready: firstRow },
  { path: '/location/tehsil/list', user: 'admin', ready: firstRow },
  { path: '/location/district/list', user: 'admin', ready: firstRow },
  { path: '/location/state/list', user: 'admin', ready: firstRow },
  { path: '/transaction/list', user: 'admin', ready: firstRow },
  { path: '/sale/list', user: 'admin', ready: firstRow },
  {
    path: '/sale/:confirmed',
    user: 'admin',
    ready: (page) => page.locator('section').nth(2).locator('table, ul'),
  },
  { path: '/audit/list', user: 'admin', ready: firstRow },
  { path: '/lead/list', user: 'admin', ready: heading },
  { path: '/approvals/list', user: 'admin', ready: heading },
  { path: '/books', user: 'admin', ready: heading },
  { path: '/tds', user: 'admin', ready: heading },
  // Its type picker shows when it is drawn.
  { path: '/import', user: 'admin', ready: (page) => page.locator('main [role=combobox]').first() },
  // Issue 51: the person's own Security page (a session's browser is data, marked translate="no").
  { path: '/security', user: 'admin', ready: (page) => page.locator('section').nth(1).locator('table, ul') },
  {
    path: '/home',
    user: 'retailer',
    ready: (page) => page.getByTestId('tile-own-clearing').filter({ hasText: /\d/ }),
  },
  { path: '/wallet', user: 'retailer', ready: firstRow },
  { path: '/statements', user: 'retailer', ready: heading },
  {
    path: '/my-tds',
    user: 'retailer',
    ready: (page) => page.locator('main table, main [role=status]').first(),
  },
];

/** The create dialogs walked: a list, and its Add button and dialog title in Hindi. */
/** The lists with a create dialog, and how it opens: Add, or (Products, without one: the seed) its create path. */
const DIALOG_LISTS = [
  ['/retailer/list', hi.app.retailers, hi.app.retailers.add],
  ['/product/list', hi.app.products, '/product/create'],
  ['/location/tehsil/list', hi.app.tehsils, hi.app.tehsils.add],
] as const;

describe('the panel in Hindi (issue 44)', () => {
  it('shows no Latin-script word outside the allow-list, on any screen or dialog', async () => {
    const found: string[] = [];
    const visitor = await hindiPage();
    const admin = await hindiPage(ADMIN);
    const retailer = await hindiPage(RETAILER);
    const pages = { admin, retailer };
    const sales = await admin.page.evaluate(async () => {
      const response = await fetch('/api/v1/bought_products/fetch?status=CONFIRMED&page=1&limit=1', {
        headers: { 'X-auth-token': `bearer ${localStorage.getItem('authToken')}` },
      });
      return response.json();
    });
    const confirmed = sales.result.boughtProducts[0]._id;
    const look = async (who: Awaited<ReturnType<typeof hindiPage>>, name: string) => {
      await settled(who.page, who.page.locator('[role=progressbar]'));
      await who.read();
      for (const word of await strayWords(who.page, who.dataWords)) found.push(`${name}: ${word}`);
    };

    for (const screen of SCREENS) {
      const who = screen.user ? pages[screen.user] : visitor;
      const path = screen.path.replace(':confirmed', confirmed);
      await who.page.goto(`${baseURL}${path}`);
      await screen.ready(who.page).waitFor();
      await look(who, `${screen.user ?? 'visitor'} ${screen.path}`);
    }

    for (const [path, texts, add] of DIALOG_LISTS) {
      const { page } = admin;
      await page.goto(`${baseURL}${path}`);
      await firstRow(page).waitFor();
      if (add.startsWith('/')) await page.goto(`${baseURL}${add}`);
      else await page.getByRole('button', { name: add }).click();
      const dialog = page.getByRole('dialog', { name: texts.createTitle });
      await dialog.waitFor();
      await look(admin, `admin ${path} create dialog`);
      // Sent empty: every field's message and the form's toast.
      await dialog.getByRole('button', { name: hi.app.list.create, exact: true }).click();
      await page.getByRole('alert').first().waitFor();
      await look(admin, `admin ${path} create dialog, sent empty`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    }

    // The dialogs, menus and states the lists and pages open into.
    const { page } = admin;
    const t = hi.app;
    const openDialog = async (name: string, open: () => Promise<void>) => {
      await open();
      const dialog = page.getByRole('dialog').last();
      await dialog.waitFor();
      await look(admin, `admin ${name}`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    };
    await page.goto(`${baseURL}/master/distributor/list`);
    await openDialog('update status dialog', () =>
      firstRow(page)
        .getByRole('button', { name: filled(t.userStatus.buttonRow) })
        .click(),
    );
    await page.goto(`${baseURL}/customer/list`);
    await openDialog('select product dialog', () =>
      firstRow(page)
        .getByRole('button', { name: filled(t.sales.selectProductRow) })
        .click(),
    );
    await page.goto(`${baseURL}/sale/${confirmed}`);
    await page.getByRole('button', { name: t.sales.receipt, exact: true }).click();
    const receiptMenu = page.getByRole('menu', { name: filled(t.sales.receiptRow) });
    await receiptMenu.waitFor();
    await look(admin, 'admin sale receipt menu');
    await page.keyboard.press('Escape');
    await receiptMenu.waitFor({ state: 'hidden' });
    await createLead();
    await page.goto(`${baseURL}/lead/list`);
    await openDialog('application dialog', () =>
      firstRow(page)
        .getByRole('button', { name: filled(t.leads.viewRow) })
        .click(),
    );
    await page.goto(`${baseURL}/books`);
    await page.getByRole('button', { name: t.books.run, exact: true }).click();
    await look(admin, 'admin /books after Run');
    await page.goto(`${baseURL}/tds`);
    await openDialog('record TDS deposit dialog', () =>
      page.getByRole('button', { name: t.tds.recordDeposit }).click(),
    );
    await page.goto(`${baseURL}/import`);
    await page.locator('input[type=file]').setInputFiles({
      name: 'walk.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'name,email,mobile,userName,state,district,tehsil,distributorMobile\nwalk,not-an-email,1,wk,Rajasthan,Jaipur,Sanganer,9200000001\n',
      ),
    });
    await page.getByRole('button', { name: t.imports.check }).click();
    await page.getByRole('table', { name: t.imports.errorsTitle }).waitFor();
    await look(admin, 'admin /import checked, with row errors');
    // The money dialogs of the transactions list (admin).
    await page.goto(`${baseURL}/transaction/list`);
    await firstRow(page).waitFor();
    for (const [button, name] of [
      [t.transactions.recordPayout, 'record payout dialog'],
      [t.transactions.adjust, 'adjust wallet dialog'],
      [t.transactions.settle, 'settle dialog'],
    ])
      await openDialog(name, () => page.getByRole('button', { name: button, exact: true }).click());
    await openDialog('logout dialog', () => page.getByRole('menuitem', { name: 'लॉगआउट' }).click());

    expect(found).toEqual([]);
  }, 240_000);
});
