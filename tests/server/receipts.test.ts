import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptHtml, receiptPdf, type SaleReceipt } from '../../src/server/modules/documents/index';
import { URL_DATA_IDENTIFIERS } from '../../src/shared/constants/catalog';
import { HINDI } from '../../src/shared/i18n/hindi';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, type TestContext } from './helpers';
import { pdfText } from './pdf';
import { deliver, idsByMobile, sell } from './selling';

// A sale's receipt (issue 43): `bought_products/receipt/:id?format=html|pdf`, for the retailer who made the sale,
// its distributor and master distributor, and staff. In the demo network retailer 9300000001 is under
// distributor 9200000001, under master distributor 9100000001; customer 9400000001 (Ramesh Kumar) is its own.

let ctx: TestContext;
const tokens: Record<string, string> = {};
let confirmed: { id: string; utmCode: string };
let pending: { id: string; utmCode: string };

const MISSING = '00000000-0000-4000-8000-000000000000';
const NOT_FOUND = 'Sale not found';

/** A GET of a receipt as a file: status, headers and the body as text and bytes. */
async function receipt(id: string, token: string | undefined, format?: string, lang?: string) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/bought_products/receipt/${id}`,
    headers: token ? { 'x-auth-token': `bearer ${token}` } : {},
    query: { ...(format ? { format } : {}), ...(lang ? { lang } : {}) },
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    text: response.body,
    bytes: response.rawPayload,
    message: () => (response.json() as { message: string }).message,
    errors: () => (response.json() as { errors?: unknown[] }).errors,
  };
}

beforeAll(async () => {
  ctx = await makeTestContext();
  // The sandbox partner is a real HTTP endpoint: the server must listen for it to be reached.
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  tokens.admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  for (const mobile of [
    '9000000001',
    '9100000001',
    '9100000002',
    '9200000001',
    '9200000002',
    '9300000001',
    '9300000002',
  ])
    tokens[mobile] = (await login(ctx.app, mobile, DEMO_PASSWORD)).token;
  const ids = await idsByMobile(ctx.app, tokens.admin);
  const list = await call(ctx.app, 'GET', 'products/fetch', { token: tokens.admin, query: { limit: '100' } });
  const saving = list.body.result.products.find((p: { name: string }) => p.name === 'Saving Account');
  const sold = await sell(ctx.app, tokens['9300000001'], {
    customerId: ids['9400000001'],
    productId: saving._id,
  });
  expect(sold.recorded.status).toBe(200);
  const opened = await deliver(ctx.app, {
    event: 'account.opened',
    utmCode: sold.utmCode,
    merchantCode: sold.merchantCode,
  });
  expect(opened.status).toBe(200);
  confirmed = { id: sold.recorded.body.result._id, utmCode: sold.utmCode };
  const waiting = await sell(ctx.app, tokens['9300000001'], {
    customerId: ids['9400000002'],
    productId: saving._id,
  });
  pending = { id: waiting.recorded.body.result._id, utmCode: waiting.utmCode };
});
afterAll(() => ctx.close());

describe('the receipt page (format=html, the default)', () => {
  it('gives the retailer who made the sale a printable page: reference, product, masked customer, amount, status, time', async () => {
    const page = await receipt(confirmed.id, tokens['9300000001']);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-disposition']).toBe(`inline; filename="receipt-${confirmed.utmCode}.html"`);
    const html = page.text;
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain(`<title>Receipt ${confirmed.utmCode} - Tierdesk</title>`);
    expect(html).toContain('<p class="brand">Tierdesk</p>');
    expect(html).toContain('@media print');
    expect(html).not.toContain('<script');
    expect(html).toContain(`<dt>Reference</dt><dd>${confirmed.utmCode}</dd>`);
    expect(html).toContain('<dt>Status</dt><dd>Confirmed</dd>');
    expect(html).toContain('<dt>Amount</dt><dd>₹500.00</dd>');
    expect(html).toContain('<dt>Product</dt><dd>Saving Account</dd>');
    expect(html).toContain('<dt>Customer</dt><dd>Ramesh Kumar</dd>');
    expect(html).toContain('<dt>Customer mobile</dt><dd>94XXXXXX01</dd>');
    expect(html).not.toContain('9400000001');
    expect(html).toContain('<dt>Retailer</dt><dd>Ganesh Mobile Store</dd>');
    // The panel's medium date and time (seed section 2), in India's time.
    expect(html).toMatch(
      /<dt>Recorded at \(IST\)<\/dt><dd>\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2}\s(AM|PM)<\/dd>/,
    );
    expect(html).toMatch(
      /<dt>Confirmed at \(IST\)<\/dt><dd>\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2}\s(AM|PM)<\/dd>/,
    );
  });

  it('is in Hindi when the panel asks in Hindi (lang=hi): its words, dates and rupees; the data as it is', async () => {
    const page = await receipt(confirmed.id, tokens['9300000001'], 'html', 'hi');
    expect(page.status).toBe(200);
    const html = page.text;
    expect(html).toMatch(/^<!doctype html>\n<html lang="hi">/);
    expect(html).toContain(`<title>रसीद ${confirmed.utmCode} - Tierdesk</title>`);
    expect(html).toContain('<h1>बिक्री की रसीद</h1>');
    expect(html).toContain(`<dt>संदर्भ</dt><dd>${confirmed.utmCode}</dd>`);
    expect(html).toContain('<dt>स्थिति</dt><dd>पुष्ट</dd>');
    expect(html).toContain('<dt>राशि</dt><dd>₹500.00</dd>');
    expect(html).toContain('<dt>ग्राहक</dt><dd>Ramesh Kumar</dd>');
    expect(html).toContain('<dt>ग्राहक का मोबाइल</dt><dd>94XXXXXX01</dd>');
    expect(html).toMatch(
      /<dt>दर्ज करने का समय \(भारतीय समय\)<\/dt><dd>\d{1,2} \S+ \d{4}, \d{2}:\d{2}:\d{2}<\/dd>/,
    );
    expect(html).not.toMatch(/<dt>[^<]*[A-Za-z][^<]*<\/dt>/);
  });

  it('says a pending sale is pending, with no time of a status it has not reached', async () => {
    const page = await receipt(pending.id, tokens['9300000001'], 'html');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<dt>Status</dt><dd>Pending: the account opening is not finished yet</dd>');
    expect(page.text).toContain('<dt>Customer mobile</dt><dd>94XXXXXX02</dd>');
    expect(page.text).not.toContain('Confirmed at');
  });

  it('names every account type in Hindi on a Hindi receipt, page and PDF, never by its code', async () => {
    for (const accountType of URL_DATA_IDENTIFIERS) {
      const named = HINDI.accountTypes[accountType];
      expect(named).toMatch(/[\u0900-\u097F]/);
      const html = receiptHtml({ ...sample, accountType }, 'hi');
      expect(html).toContain(`<dt>खाते का प्रकार</dt><dd>${named}</dd>`);
      expect(html).not.toContain(accountType);
      const pdf = await pdfText(await receiptPdf({ ...sample, accountType }, 'hi'));
      expect(pdf).toContain(`खाते का प्रकार: ${named}`);
      expect(pdf).not.toContain(accountType);
    }
  });

  it('escapes every value it shows', () => {
    const html = receiptHtml({
      ...sample,
      reference: '<script>alert(1)</script>',
      customer: 'A & "B" <img src=x onerror=alert(1)>',
      product: "O'Brien <b>",
    });
    expect(html).not.toContain('<script>alert');
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<b>/i);
    expect(html).toContain('<dd>&lt;script&gt;alert(1)&lt;/script&gt;</dd>');
    // Names are title-cased, then escaped.
    expect(html).toContain('<dd>A &amp; &quot;B&quot; &lt;Img Src=X Onerror=Alert(1)&gt;</dd>');
    expect(html).toContain('<dd>O&#39;Brien &lt;B&gt;</dd>');
  });
});

describe('the receipt PDF (format=pdf)', () => {
  it('holds the same facts, read back from the file, for the distributor and master distributor above the retailer', async () => {
    for (const token of [tokens['9200000001'], tokens['9100000001']]) {
      const pdf = await receipt(confirmed.id, token, 'pdf');
      expect(pdf.status).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['content-disposition']).toBe(
        `attachment; filename="receipt-${confirmed.utmCode}.pdf"`,
      );
      const text = await pdfText(pdf.bytes);
      expect(text.split('\n').slice(0, 2)).toEqual(['Tierdesk', 'Sale receipt']);
      expect(text).toContain(`Reference: ${confirmed.utmCode}`);
      expect(text).toContain('Status: Confirmed');
      expect(text).toContain('Amount: ₹500.00');
      expect(text).toContain('Product: Saving Account');
      expect(text).toContain('Customer: Ramesh Kumar');
      expect(text).toContain('Customer mobile: 94XXXXXX01');
      expect(text).not.toContain('9400000001');
      expect(text).toMatch(/Recorded at \(IST\): \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2}\s(AM|PM)\n/);
    }
  });

  it('prints a name in Devanagari and Latin as it is, and one its fonts lack still reads back as itself', async () => {
    const text = await pdfText(await receiptPdf({ ...sample, customer: 'रमेश Kumar' }));
    expect(text).toContain('Customer: रमेश Kumar');
    // Intl puts a narrow no-break space before AM; pdftotext reads every space as ' '.
    expect(text).toContain('Recorded at (IST): Nov 26, 2026, 11:30:00 AM\n');
    // Neither Noto Sans nor Noto Sans Devanagari draws Chinese: drawn as '?', read back as written.
    expect(await pdfText(await receiptPdf({ ...sample, customer: '李 Kumar' }))).toContain(
      'Customer: 李 Kumar',
    );
  });
});

describe('who may read a receipt', () => {
  it('staff read any sale’s receipt', async () => {
    expect((await receipt(confirmed.id, tokens.admin, 'pdf')).status).toBe(200);
    expect((await receipt(confirmed.id, tokens['9000000001'])).status).toBe(200);
  });

  it('anyone outside the sale’s chain gets the 404 of a sale that does not exist', async () => {
    // Another retailer of the same distributor, another distributor of the same master distributor, another
    // master distributor.
    for (const mobile of ['9300000002', '9200000002', '9100000002'])
      for (const format of ['html', 'pdf']) {
        const refused = await receipt(confirmed.id, tokens[mobile], format);
        expect(refused.status, `${mobile} ${format}`).toBe(404);
        expect(refused.message()).toBe(NOT_FOUND);
      }
  });

  it('refuses a caller without a session (401)', async () => {
    const refused = await receipt(confirmed.id, undefined);
    expect(refused.status).toBe(401);
    expect(refused.message()).toBe('Authentication required');
  });

  it('answers an unknown sale 404, a malformed id and an unknown format 400', async () => {
    const unknown = await receipt(MISSING, tokens.admin);
    expect(unknown.status).toBe(404);
    expect(unknown.message()).toBe(NOT_FOUND);
    const malformed = await receipt('not-a-sale', tokens.admin);
    expect(malformed.status).toBe(400);
    expect(malformed.message()).toBe('Invalid data!');
    expect(malformed.errors()).toEqual([{ msg: 'Invalid id', param: 'id' }]);
    const format = await receipt(confirmed.id, tokens.admin, 'docx');
    expect(format.status).toBe(400);
    expect(format.message()).toBe('Invalid data!');
    expect(format.errors()).toEqual([{ msg: 'format must be html or pdf', param: 'format' }]);
    const lang = await receipt(confirmed.id, tokens.admin, 'html', 'fr');
    expect(lang.status).toBe(400);
    expect(lang.message()).toBe('Invalid data!');
    expect(lang.errors()).toEqual([{ msg: 'lang must be en or hi', param: 'lang' }]);
  });
});

const sample: SaleReceipt = {
  id: MISSING,
  reference: 'SBX0000000000000001',
  merchantCode: 'SANDBOX-1',
  product: 'Saving Account',
  provider: 'PayU',
  accountType: 'PAYUSPRINT-SAVING',
  customer: 'Ramesh Kumar',
  mobile: '94XXXXXX01',
  retailer: 'Ganesh Mobile Store',
  amount: 500,
  status: 'CONFIRMED',
  recordedAt: new Date('2026-11-26T06:00:00Z'),
  statusAt: new Date('2026-11-26T06:05:00Z'),
};
