import fs from 'node:fs';
import { createRequire } from 'node:module';
import fontkit, { type Font } from '@pdf-lib/fontkit';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFRawStream,
  type PDFRef,
} from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TdsConfig } from '../../src/server/config';
import { receiptPdf } from '../../src/server/modules/documents/index';
import { formatDate, formatRupees } from '../../src/shared/format';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, saveBodyOf, type TestContext } from './helpers';
import { pdfLines, pdfText } from './pdf';
import { deliver, idsByMobile, sell } from './selling';

// Issue 52: one documents module writes every PDF, in English or Hindi (lang=hi), with names in Latin or Devanagari
// printed as they are. A retailer and its customer are renamed in Devanagari (matras, a reph, a conjunct); the
// retailer sells once in August 2035 (India's time; only Date is faked), the sale is confirmed and settled, and its
// commission taxed (a threshold of nothing). Its receipt, the retailer's August statement and its certificate for
// the quarter are read back with pdftotext, in both languages.

const TDS: TdsConfig = {
  rateBasisPoints: 200,
  noPanRateBasisPoints: 2000,
  thresholdPaise: 0,
  deducteeTypes: [2, 3, 4],
};
const RETAILER = { mobile: '9300000002', name: 'किरण क्षत्रिय' };
const CUSTOMER = { mobile: '9400000004', name: 'सुनीता शर्मा' };
const INDIA = 'Asia/Kolkata';
const CERTIFICATE = { fy: '2035-36', quarter: 'Q2' };

let ctx: TestContext;
let admin: string;
let retailer: string;
let ids: Record<string, string>;
let sale: { _id: string; createdAt: string; confirmedAt: string };

/** A file the API answers (a PDF), as bytes. */
async function file(path: string, token: string, query: Record<string, string>) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/${path}`,
    headers: { 'x-auth-token': `bearer ${token}` },
    query,
  });
  expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
  expect(response.headers['content-type']).toBe('application/pdf');
  return response.rawPayload;
}

/** Renames a user through account/update, as an admin does in the panel. */
async function rename(mobile: string, name: string) {
  const id = ids[mobile];
  const [current] = (await call(ctx.app, 'GET', 'account/fetch', { token: admin, query: { _id: id } })).body
    .result.users;
  const saved = await call(ctx.app, 'POST', `account/update/${id}`, {
    token: admin,
    body: {
      ...(await saveBodyOf(ctx.app, admin, id)),
      ...(current.retailer
        ? {
            distributor: { masterDistributorId: current.retailer.masterDistributorId },
            retailer: { distributorId: current.retailer.distributorId },
          }
        : {}),
      name,
    },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}

/** The text left once the data is taken out: what the document itself says, in its language. */
const wordsBesides = (text: string, data: string[]) =>
  data.reduce((rest, datum) => rest.split(datum).join(' '), text);

beforeAll(async () => {
  ctx = await makeTestContext({ config: { tds: TDS, sessionTtlHours: 24 * 366 } });
  // The sandbox partner answers payusprint/* through this server's own address.
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  ids = await idsByMobile(ctx.app, admin);
  await rename(RETAILER.mobile, RETAILER.name);
  await rename(CUSTOMER.mobile, CUSTOMER.name);
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(new Date('2035-08-10T11:15:30+05:30'));
    admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
    retailer = (await login(ctx.app, RETAILER.mobile, DEMO_PASSWORD)).token;
    const products = await call(ctx.app, 'GET', 'products/fetch', {
      token: admin,
      query: { searchText: 'Saving' },
    });
    const sold = await sell(ctx.app, retailer, {
      customerId: ids[CUSTOMER.mobile],
      productId: products.body.result.products[0]._id,
    });
    expect(sold.recorded.status).toBe(200);
    vi.setSystemTime(new Date('2035-08-10T11:16:05+05:30'));
    const confirmed = await deliver(ctx.app, { event: 'account.opened', ...sold });
    expect(confirmed.status).toBe(200);
    vi.setSystemTime(new Date('2035-08-12T15:00:00+05:30'));
    const settled = await call(ctx.app, 'POST', 'wallet/settle', {
      token: admin,
      body: { userId: ids[RETAILER.mobile] },
    });
    expect(settled.status).toBe(200);
    const fetched = await call(ctx.app, 'GET', 'bought_products/fetch', {
      token: admin,
      query: { _id: sold.recorded.body.result._id },
    });
    [sale] = fetched.body.result.boughtProducts;
    expect(sale.confirmedAt).toBeTruthy();
  } finally {
    vi.useRealTimers();
  }
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  retailer = (await login(ctx.app, RETAILER.mobile, DEMO_PASSWORD)).token;
});
afterAll(() => ctx.close());

describe('a receipt, a statement and a certificate in Hindi (lang=hi), names in Devanagari', () => {
  it('the receipt: its Hindi labels, the names as they are, ₹ and the Hindi date', async () => {
    const lines = await pdfLines(
      await file(`bought_products/receipt/${sale._id}`, retailer, { format: 'pdf', lang: 'hi' }),
    );
    const time = (at: string) => formatDate(at, { locale: 'hi', timeZone: INDIA });
    expect(lines).toEqual([
      'Tierdesk',
      'बिक्री की रसीद',
      expect.stringMatching(/^संदर्भ: \S+$/),
      'स्थिति: पुष्ट',
      'राशि: ₹500.00',
      'उत्पाद: Saving Account',
      expect.stringMatching(/^प्रोवाइडर: \S/),
      'खाते का प्रकार: PAYUSPRINT बचत',
      `ग्राहक: ${CUSTOMER.name}`,
      'ग्राहक का मोबाइल: 94XXXXXX04',
      `रिटेलर: ${RETAILER.name}`,
      expect.stringMatching(/^मर्चेंट कोड: \S+$/),
      `दर्ज करने का समय (भारतीय समय): ${time(sale.createdAt)}`,
      `पुष्टि का समय (भारतीय समय): ${time(sale.confirmedAt)}`,
      'यह रसीद रखें: इस बिक्री के किसी भी प्रश्न के लिए संदर्भ बताएँ।',
    ]);
    // The confirmation came at the faked clock's time (the sale's own record keeps the database's).
    expect(time(sale.confirmedAt)).toBe('10 अग॰ 2035, 11:16:05');
  });

  it('the statement: its title, Hindi month days, balances, column headings and kinds; the customer’s name', async () => {
    const bytes = await file('statements/fetch', retailer, {
      userId: ids[RETAILER.mobile],
      month: '2035-08',
      format: 'pdf',
      lang: 'hi',
    });
    const { body } = await call(ctx.app, 'GET', 'statements/fetch', {
      token: retailer,
      query: { userId: ids[RETAILER.mobile], month: '2035-08' },
    });
    const statement = body.result;
    const money = (rupees: number) => formatRupees(rupees, 'hi');
    const lines = await pdfLines(bytes);
    expect(lines.slice(0, 4)).toEqual([
      `${RETAILER.name} का विवरण`,
      'रिटेलर, 1 अग॰ 2035 से 31 अग॰ 2035',
      `प्रारंभिक शेष: उपलब्ध ${money(statement.opening.balance)}, क्लियरिंग ${money(statement.opening.clearingBalance)}`,
      'तिथि और समय प्रकार शेष बिक्री या भुगतान उत्पाद ग्राहक जमा नामे कर (टीडीएस) उपलब्ध शेष क्लियरिंग शेष',
    ]);
    expect(lines.at(-1)).toBe(
      `अंतिम शेष: उपलब्ध ${money(statement.closing.balance)}, क्लियरिंग ${money(statement.closing.clearingBalance)}`,
    );
    const rows = lines.slice(4, -1);
    expect(rows).toHaveLength(statement.lines.length);
    const kinds: Record<string, string> = { COMMISSION: 'कमीशन', SETTLEMENT: 'निपटान', TDS: 'टीडीएस' };
    const balances: Record<string, string> = { CLEARING: 'क्लियरिंग', AVAILABLE: 'उपलब्ध' };
    statement.lines.forEach(
      (l: { createdAt: string; kind: string; balanceType: string; amount: number }, i: number) => {
        expect(
          rows[i].startsWith(
            `${formatDate(l.createdAt, { locale: 'hi', timeZone: INDIA })} ${kinds[l.kind]} ${balances[l.balanceType]} `,
          ),
          rows[i],
        ).toBe(true);
        expect(rows[i]).toContain(money(l.amount));
      },
    );
    expect(statement.lines.map((l: { kind: string }) => l.kind)).toEqual(
      expect.arrayContaining(['COMMISSION', 'SETTLEMENT', 'TDS']),
    );
    expect(rows.find((row) => row.includes(' कमीशन '))).toContain(CUSTOMER.name);
    // Wholly Hindi: besides the data (references, products, the customer's masked mobile), no Latin letter.
    const data = statement.lines.flatMap(
      (l: {
        reference: string | null;
        product: string | null;
        customer: { mobile: string | null } | null;
      }) => [l.reference ?? '', l.product ?? '', l.customer?.mobile ?? ''],
    );
    expect(wordsBesides(lines.join('\n'), data.filter(Boolean))).not.toMatch(/[A-Za-z?]/);
  });

  it('the certificate: its Hindi parts, quarter and dates; the deductee’s name; the figures in ₹', async () => {
    const query = { userId: ids[RETAILER.mobile], ...CERTIFICATE };
    const { body } = await call(ctx.app, 'GET', 'tds/certificate', { token: retailer, query });
    const certificate = body.result;
    expect(certificate.tds).toBeGreaterThan(0);
    const money = (rupees: number) => formatRupees(rupees, 'hi');
    const lines = await pdfLines(
      await file('tds/certificate', retailer, { ...query, format: 'pdf', lang: 'hi' }),
    );
    expect(lines).toEqual([
      'स्रोत पर काटे गए कर का प्रमाणपत्र (फ़ॉर्म 16A का डेटा)',
      'धारा 194H: कमीशन या दलाली',
      'कटौतीकर्ता: Tierdesk',
      `जिसका कर कटा: ${RETAILER.name}`,
      'अभी का पैन: नहीं दिया गया',
      'वित्तीय वर्ष 2035-36, दूसरी तिमाही: 1 जुल॰ 2035 से 30 सित॰ 2035',
      `भुगतान या जमा राशि: ${money(certificate.credited)}`,
      `काटा गया कर: ${money(certificate.tds)}`,
      'दर और पैन के अनुसार',
      'इस्तेमाल हुआ पैन    दर    जमा राशि    कर',
      `नहीं दिया गया    20%    ${money(certificate.credited)}    ${money(certificate.tds)}`,
      'तारीख    प्रविष्टि    इस्तेमाल हुआ पैन    जमा राशि    दर    कर',
      `12 अग॰ 2035    काटा गया    नहीं दिया गया    ${money(certificate.credited)}    20%    ${money(certificate.tds)}`,
    ]);
  });
});

describe('the same documents in English (the default), names still in Devanagari', () => {
  it('prints the names as they are, ₹ (never "Rs.") and the panel’s medium dates with seconds', async () => {
    const receipt = await pdfText(
      await file(`bought_products/receipt/${sale._id}`, retailer, { format: 'pdf' }),
    );
    expect(receipt).toContain(`Customer: ${CUSTOMER.name}\n`);
    expect(receipt).toContain(`Retailer: ${RETAILER.name}\n`);
    expect(receipt).toContain('Amount: ₹500.00\n');
    expect(receipt).toContain('Confirmed at (IST): Aug 10, 2035, 11:16:05 AM\n');
    const statement = await pdfLines(
      await file('statements/fetch', retailer, {
        userId: ids[RETAILER.mobile],
        month: '2035-08',
        format: 'pdf',
      }),
    );
    expect(statement.slice(0, 2)).toEqual([
      `Statement of ${RETAILER.name}`,
      'Retailer, Aug 1, 2035 to Aug 31, 2035',
    ]);
    expect(statement.find((row) => row.includes(' Commission '))).toMatch(
      new RegExp(`^Aug 10, 2035, 11:16:05 AM Commission Clearing \\S+ Saving Account ${CUSTOMER.name} `),
    );
    const certificate = await pdfText(
      await file('tds/certificate', retailer, {
        userId: ids[RETAILER.mobile],
        ...CERTIFICATE,
        format: 'pdf',
      }),
    );
    expect(certificate).toContain(`Deductee: ${RETAILER.name}\n`);
    expect(certificate).toContain('Financial year 2035-36, quarter Q2: Jul 1, 2035 to Sep 30, 2035\n');
    for (const text of [receipt, statement.join('\n'), certificate]) {
      expect(text).not.toContain('Rs.');
      expect(text).not.toContain('?');
    }
  });
});

describe('the glyphs printed', () => {
  const require = createRequire(import.meta.url);
  /** The font files the documents embed, by the name pdf-lib gives each embedded font (its PostScript name). */
  const originals: Record<string, string> = {
    'NotoSans-Regular': '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
    'NotoSans-Bold': '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
    'NotoSansDevanagari-Regular':
      '@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf',
    'NotoSansDevanagari-Bold':
      '@expo-google-fonts/noto-sans-devanagari/700Bold/NotoSansDevanagari_700Bold.ttf',
  };

  it('are the fonts’ own outlines, in both fonts and weights: the embedded subsets lose none', async () => {
    const bytes = await receiptPdf(
      {
        id: 'x',
        reference: 'SBX0000000000000001',
        merchantCode: 'SANDBOX-1',
        product: 'Saving Account',
        provider: 'PayU',
        accountType: 'PAYUSPRINT-SAVING',
        customer: `${CUSTOMER.name} Kumar`,
        mobile: '94XXXXXX04',
        retailer: RETAILER.name,
        amount: 123456.5,
        status: 'CONFIRMED',
        recordedAt: new Date('2035-08-10T05:45:30Z'),
        statusAt: null,
      },
      'hi',
    );
    const document = await PDFDocument.load(bytes);
    const page = document.getPages()[0];
    const fonts = page.node.Resources()?.lookup(PDFName.of('Font'), PDFDict);
    if (!fonts) throw new Error('no fonts');
    /**
     * Each font resource: the original font twice (one lays text out, the other gives outlines: in fontkit 1 reading
     * a glyph's outline upsets the shaping of later text on the same font) and the subset embedded.
     */
    const faces = new Map<string, { shaper: Font; outlines: Font; subset: Font }>();
    for (const [key, ref] of fonts.entries()) {
      const font = document.context.lookup(ref, PDFDict);
      const baseName = font.lookup(PDFName.of('BaseFont'), PDFName).decodeText();
      const cid = font.lookup(PDFName.of('DescendantFonts'), PDFArray).lookup(0, PDFDict);
      const descriptor = cid.lookup(PDFName.of('FontDescriptor'), PDFDict);
      const stream = document.context.lookup(
        descriptor.get(PDFName.of('FontFile2')) as PDFRef,
      ) as PDFRawStream;
      const family = Object.keys(originals).find((name) => baseName.startsWith(`${name}-`));
      if (!family) throw new Error(`unexpected font ${baseName}`);
      const original = fs.readFileSync(require.resolve(originals[family]));
      faces.set(key.decodeText(), {
        shaper: fontkit.create(original),
        outlines: fontkit.create(original),
        subset: fontkit.create(Buffer.from(decodePDFRawStream(stream).decode())),
      });
    }
    expect(faces.size).toBe(4);
    // Each run: its font, its text (ActualText) and the subset's glyph ids it shows.
    const content = page.node.Contents();
    const streams = content instanceof PDFArray ? content.asArray() : [content];
    const text = streams
      .map((ref) =>
        Buffer.from(
          decodePDFRawStream(document.context.lookup(ref as PDFRef) as PDFRawStream).decode(),
        ).toString('latin1'),
      )
      .join('\n');
    const runs = [
      ...text.matchAll(/\/(\S+) [\d.]+ Tf[\s\S]*?\/ActualText <FEFF([0-9A-F]*)>[\s\S]*?<([0-9A-F]*)> Tj/g),
    ];
    expect(runs.length).toBeGreaterThan(20);
    for (const [, key, actual, shown] of runs) {
      const { shaper, outlines, subset } = faces.get(key)!;
      const runText = Buffer.from(actual, 'hex').swap16().toString('utf16le');
      const expected = shaper.layout(runText).glyphs.map((g) => outlines.getGlyph(g.id).path.toSVG());
      const printed = (shown.match(/.{4}/g) ?? []).map((id) =>
        subset.getGlyph(Number.parseInt(id, 16)).path.toSVG(),
      );
      expect(printed, runText).toEqual(expected);
    }
  });
});
