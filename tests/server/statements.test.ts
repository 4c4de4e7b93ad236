import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TdsConfig } from '../../src/server/config';
import { monthOf } from '../../src/shared/constants/statements';
import { formatDate, formatRupees } from '../../src/shared/format';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, type TestContext } from './helpers';
import { pdfLines } from './pdf';
import { deliver, idsByMobile, sell } from './selling';

// Monthly statements (issue 43). A year (2030, India's calendar) of a retailer's sales, settlements, TDS, payouts
// and a reversal, written at their own dates (only Date is faked: the server's clock), then every month's statement
// is checked against the next one and against the postings themselves. A TDS threshold of 250 rupees, so the
// year's third settlement crosses it.
const TDS: TdsConfig = {
  rateBasisPoints: 200,
  noPanRateBasisPoints: 2000,
  thresholdPaise: 25_000,
  deducteeTypes: [2, 3, 4],
};
const RETAILER = '9300000002';
const CUSTOMER = '9400000004';
const MONTHS = Array.from({ length: 12 }, (_, i) => `2030-${String(i + 1).padStart(2, '0')}`);

let ctx: TestContext;
let ids: Record<string, string>;
let savingId: string;
const retailerId = () => ids[RETAILER];

interface Line {
  _id: string;
  createdAt: string;
  date: string;
  time: string;
  kind: string;
  transactionType: 'CREDIT' | 'DEBIT';
  balanceType: 'CLEARING' | 'AVAILABLE';
  reference: string | null;
  product: string | null;
  customer: { name: string; mobile: string | null } | null;
  amount: number;
  tax: number | null;
  balance: number;
  clearingBalance: number;
}
interface Statement {
  user: { _id: string; name: string; type: number };
  month: string;
  opening: { balance: number; clearingBalance: number };
  closing: { balance: number; clearingBalance: number };
  lines: Line[];
}

const paise = (rupees: number) => Math.round(rupees * 100);
/** Exact decimal rupees of a wire amount, as the CSV writes them. */
const fixed = (rupees: number) => (paise(rupees) / 100).toFixed(2);

const fetchStatement = (token: string, query: Record<string, string>) =>
  call(ctx.app, 'GET', 'statements/fetch', { token, query });

async function download(token: string, query: Record<string, string>) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: '/api/v1/statements/fetch',
    headers: { 'x-auth-token': `bearer ${token}` },
    query,
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    text: response.body,
    bytes: response.rawPayload,
  };
}

/** The postings of the retailer in a month of India's calendar, in wallet order, counted by the database. */
async function postingIdsIn(month: string) {
  const { rows } = await ctx.database.pool.query(
    `select id from postings where user_id = $1
       and to_char(created_at at time zone 'Asia/Kolkata', 'YYYY-MM') = $2 order by wallet_seq`,
    [retailerId(), month],
  );
  return rows.map((r: { id: string }) => r.id);
}

/** A minimal CSV reader (quotes, doubled quotes), for reading the file back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

const statements = new Map<string, Statement>();
let admin: string;
let retailer: string;

beforeAll(async () => {
  ctx = await makeTestContext({ config: { tds: TDS, sessionTtlHours: 2 * 366 * 24 } });
  // The sandbox partner answers payusprint/* through this server's own address.
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  ids = await idsByMobile(ctx.app, admin);
  const list = await call(ctx.app, 'GET', 'products/fetch', {
    token: admin,
    query: { searchText: 'Saving' },
  });
  savingId = list.body.result.products[0]._id;
});

// The year, in a hook of its own (its own time limit).
beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  /** At a moment in India's time: the server's clock (Date only; timers run as they do). */
  const at = (indiaTime: string) => vi.setSystemTime(new Date(`${indiaTime}+05:30`));
  // Sessions signed in as the year starts, for the whole year (the context's sessionTtlHours).
  at('2030-01-01T08:00');
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  retailer = (await login(ctx.app, RETAILER, DEMO_PASSWORD)).token;
  try {
    const sales: { utmCode: string; merchantCode: string }[] = [];
    const sale = async () => {
      const { utmCode, merchantCode } = await sell(ctx.app, retailer, {
        customerId: ids[CUSTOMER],
        productId: savingId,
      });
      const confirmed = await deliver(ctx.app, { event: 'account.opened', utmCode, merchantCode });
      expect(confirmed.status).toBe(200);
      sales.push({ utmCode, merchantCode });
    };
    const settle = async () => {
      const settled = await call(ctx.app, 'POST', 'wallet/settle', {
        token: admin,
        body: { userId: retailerId() },
      });
      expect(settled.status).toBe(200);
    };
    for (const [i, month] of MONTHS.entries()) {
      if (month === '2030-02') {
        // Both sides of India's midnight (18:30 UTC): a sale at 23:59:30 on 31 January is January's, one at
        // 00:00:30 on 1 February February's.
        at('2030-02-01T00:00:30');
        await sale();
      }
      for (let n = 0; n <= i % 2; n++) {
        at(`${month}-0${3 + n}T11:${10 + n}`);
        await sale();
      }
      // Settled in the month, except the last sale of every third month (settled in the next one).
      at(`${month}-12T15:00`);
      if (i % 3 !== 2) await settle();
      at(`${month}-20T12:00`);
      const wallet = (await call(ctx.app, 'GET', 'wallet/fetch', { token: retailer })).body.result.wallet;
      if (wallet.balance >= 50) {
        const paid = await call(ctx.app, 'POST', 'wallet/payout', {
          token: admin,
          body: { userId: retailerId(), amount: Math.floor(wallet.balance / 2), reference: `STMT-${month}` },
        });
        expect(paid.status).toBe(200);
      }
      if (month === '2030-05') {
        // A settled commission reversed: the reversal, and its tax given back.
        const reversed = await deliver(ctx.app, { event: 'account.reversed', ...sales[sales.length - 1] });
        expect(reversed.status).toBe(200);
      }
      if (month === '2030-01') {
        at('2030-01-31T23:59:30');
        await sale();
      }
    }
  } finally {
    vi.useRealTimers();
  }
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  retailer = (await login(ctx.app, RETAILER, DEMO_PASSWORD)).token;
  for (const month of ['2029-12', ...MONTHS, '2031-01']) {
    const res = await fetchStatement(retailer, { userId: retailerId(), month });
    expect(res.status, month).toBe(200);
    statements.set(month, res.body.result);
  }
});
afterAll(() => ctx.close());

describe('a year of statements', () => {
  it('chain: every month opens with the last one’s closing, and its lines add up from opening to closing', () => {
    const months = ['2029-12', ...MONTHS, '2031-01'];
    for (const [i, month] of months.entries()) {
      const s = statements.get(month)!;
      if (i > 0) expect(s.opening, month).toEqual(statements.get(months[i - 1])!.closing);
      let balance = paise(s.opening.balance);
      let clearing = paise(s.opening.clearingBalance);
      for (const line of s.lines) {
        const signed = (line.transactionType === 'CREDIT' ? 1 : -1) * paise(line.amount);
        if (line.balanceType === 'AVAILABLE') balance += signed;
        else clearing += signed;
        // Each line's running balances are its posting's: the last ones plus or minus its amount.
        expect([paise(line.balance), paise(line.clearingBalance)], `${month} ${line._id}`).toEqual([
          balance,
          clearing,
        ]);
      }
      expect([balance, clearing], month).toEqual([
        paise(s.closing.balance),
        paise(s.closing.clearingBalance),
      ]);
      if (s.lines.length > 0) {
        const last = s.lines[s.lines.length - 1];
        expect({ balance: last.balance, clearingBalance: last.clearingBalance }).toEqual(s.closing);
      }
    }
    // Before the year nothing moved, after it nothing: December 2029 and January 2031 have no lines.
    expect(statements.get('2029-12')!.lines).toEqual([]);
    expect(statements.get('2031-01')!.lines).toEqual([]);
    expect(statements.get('2031-01')!.opening).toEqual(statements.get('2030-12')!.closing);
  });

  it('totals a month as commissions + adjustments − payouts − TDS − reversals, leaving out settlements (issue 53)', async () => {
    let settledMonths = 0;
    for (const month of MONTHS) {
      const s = statements.get(month)!;
      /** The month's lines of a kind, credits less debits, in paise. */
      const net = (kind: string) =>
        s.lines
          .filter((l) => l.kind === kind)
          .reduce((sum, l) => sum + (l.transactionType === 'CREDIT' ? 1 : -1) * paise(l.amount), 0);
      const sumOf = (kind: string, type: 'CREDIT' | 'DEBIT') =>
        s.lines
          .filter((l) => l.kind === kind && l.transactionType === type)
          .reduce((sum, l) => sum + paise(l.amount), 0);
      const last = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)), 0));
      const res = await call(ctx.app, 'GET', 'wallet/fetch', {
        token: retailer,
        query: { page: '1', limit: '10', from: `${month}-01`, to: last.toISOString().slice(0, 10) },
      });
      expect(res.status, month).toBe(200);
      const { moneyIn, moneyOut } = res.body.result.totals as { moneyIn: number; moneyOut: number };
      const commissions = sumOf('COMMISSION', 'CREDIT');
      const adjustments = net('ADJUSTMENT');
      const payouts = sumOf('PAYOUT', 'DEBIT');
      const tds = -net('TDS');
      const reversals = -net('REVERSAL');
      // What the wallet gained in the month, both balances together: the formula, and money in less money out.
      const gained =
        paise(s.closing.balance) +
        paise(s.closing.clearingBalance) -
        paise(s.opening.balance) -
        paise(s.opening.clearingBalance);
      expect(commissions + adjustments - payouts - tds - reversals, month).toBe(gained);
      expect(paise(moneyIn) - paise(moneyOut), month).toBe(gained);
      // Each side: the month's credits and debits but a settlement's, which moves clearing to available.
      expect(paise(moneyIn), month).toBe(
        commissions + sumOf('ADJUSTMENT', 'CREDIT') + sumOf('TDS', 'CREDIT') + sumOf('REVERSAL', 'CREDIT'),
      );
      expect(paise(moneyOut), month).toBe(
        payouts + sumOf('ADJUSTMENT', 'DEBIT') + sumOf('TDS', 'DEBIT') + sumOf('REVERSAL', 'DEBIT'),
      );
      if (sumOf('SETTLEMENT', 'CREDIT') > 0) settledMonths++;
    }
    // The year settles in most months, and its tax and reversal are in it: the check can fail.
    expect(settledMonths).toBeGreaterThan(6);
    expect(MONTHS.some((m) => statements.get(m)!.lines.some((l) => l.kind === 'REVERSAL'))).toBe(true);
    expect(MONTHS.some((m) => statements.get(m)!.lines.some((l) => l.kind === 'TDS'))).toBe(true);
  });

  it('closes the year at the wallet’s balances now', async () => {
    const wallet = (await call(ctx.app, 'GET', 'wallet/fetch', { token: retailer })).body.result.wallet;
    expect(statements.get('2030-12')!.closing).toEqual(wallet);
  });

  it('has exactly one line per posting of the month, in the wallet’s order', async () => {
    for (const month of MONTHS) {
      const s = statements.get(month)!;
      expect(
        s.lines.map((l) => l._id),
        month,
      ).toEqual(await postingIdsIn(month));
      for (const line of s.lines) expect(line.date.slice(0, 7)).toBe(month);
    }
    // The seconds either side of India's midnight fall in their own months.
    expect(
      statements.get('2030-01')!.lines.some((l) => l.date === '2030-01-31' && l.time === '23:59:30'),
    ).toBe(true);
    expect(
      statements.get('2030-02')!.lines.some((l) => l.date === '2030-02-01' && l.time === '00:00:30'),
    ).toBe(true);
  });

  it('names each line’s kind, sale or payout, product, masked customer and tax', () => {
    const all = MONTHS.flatMap((m) => statements.get(m)!.lines);
    expect(new Set(all.map((l) => l.kind))).toEqual(
      new Set(['COMMISSION', 'SETTLEMENT', 'TDS', 'PAYOUT', 'REVERSAL']),
    );
    const commission = all.find((l) => l.kind === 'COMMISSION')!;
    expect(commission).toMatchObject({
      transactionType: 'CREDIT',
      balanceType: 'CLEARING',
      product: expect.stringMatching(/saving/i),
      customer: { name: expect.any(String), mobile: '94XXXXXX04' },
      tax: null,
    });
    expect(commission.reference).toMatch(/\S/);
    const payout = all.find((l) => l.kind === 'PAYOUT' && l.date.startsWith('2030-03'))!;
    expect(payout).toMatchObject({ reference: 'STMT-2030-03', product: null, customer: null, tax: null });
    const withheld = all.filter((l) => l.kind === 'TDS' && l.transactionType === 'DEBIT');
    expect(withheld.length).toBeGreaterThan(0);
    for (const line of withheld) expect(line.tax).toBe(line.amount);
    const returned = all.filter((l) => l.kind === 'TDS' && l.transactionType === 'CREDIT');
    expect(returned).toHaveLength(1);
    expect(returned[0].tax).toBe(-returned[0].amount);
    // TDS lines name the sale whose commission was taxed.
    expect(withheld[0].reference).toMatch(/\S/);
    expect(withheld[0].customer?.mobile).toBe('94XXXXXX04');
  });
});

describe('the files hold the same figures', () => {
  it('CSV: opening, a row per line, closing, money exact', async () => {
    for (const month of ['2030-01', '2030-05']) {
      const s = statements.get(month)!;
      const file = await download(retailer, { userId: retailerId(), month, format: 'csv' });
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(file.headers['content-disposition']).toBe(`attachment; filename="statement-${month}.csv"`);
      const rows = parseCsv(file.text);
      expect(rows[0]).toEqual([
        'Date',
        'Time',
        'Kind',
        'Credit or debit',
        'Balance moved',
        'Reference',
        'Product',
        'Customer',
        'Customer mobile',
        'Amount',
        'Tax',
        'Available balance',
        'Clearing balance',
      ]);
      const lastDay = month === '2030-01' ? '2030-01-31' : '2030-05-31';
      expect(rows[1]).toEqual([
        `${month}-01`,
        ...Array(1).fill(''),
        'OPENING',
        ...Array(8).fill(''),
        fixed(s.opening.balance),
        fixed(s.opening.clearingBalance),
      ]);
      expect(rows.slice(2, -1)).toEqual(
        s.lines.map((l) => [
          l.date,
          l.time,
          l.kind,
          l.transactionType,
          l.balanceType,
          l.reference ?? '',
          l.product ?? '',
          l.customer?.name ?? '',
          l.customer?.mobile ?? '',
          fixed(l.amount),
          l.tax === null ? '' : fixed(l.tax),
          fixed(l.balance),
          fixed(l.clearingBalance),
        ]),
      );
      expect(rows.at(-1)).toEqual([
        lastDay,
        '',
        'CLOSING',
        ...Array(8).fill(''),
        fixed(s.closing.balance),
        fixed(s.closing.clearingBalance),
      ]);
    }
  });

  it('PDF: the heading, every line’s cells, and the closing, read back from the file', async () => {
    const month = '2030-05';
    const s = statements.get(month)!;
    const file = await download(retailer, { userId: retailerId(), month, format: 'pdf' });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="statement-${month}.pdf"`);
    const lines = await pdfLines(file.bytes);
    const money = (rupees: number) => formatRupees(rupees);
    const heading =
      'Date and time Kind Balance Reference Product Customer Credit Debit Tax Available Clearing';
    expect(lines.slice(0, 4)).toEqual([
      `Statement of ${s.user.name}`,
      'Retailer, May 1, 2030 to May 31, 2030',
      `Opening balance: available ${money(s.opening.balance)}, clearing ${money(s.opening.clearingBalance)}`,
      heading,
    ]);
    // A row reads as its cells one space apart: text cells may be cut to their column (an ellipsis), figures never.
    const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const textCell = (cell: string) => {
      const chars = Array.from(cell);
      const cuts = chars.map((_, i) => literal(chars.slice(0, i + 1).join(''))).reverse();
      return `(?:${literal(cell)}|(?:${cuts.join('|')})\\.\\.\\.)`;
    };
    const kind = (k: string) => k.charAt(0) + k.slice(1).toLowerCase();
    const rows = s.lines.map((l) =>
      [
        textCell(formatDate(l.createdAt, { timeZone: 'Asia/Kolkata' }).replace('\u202f', ' ')),
        textCell(kind(l.kind)),
        textCell(kind(l.balanceType)),
        textCell(l.reference ?? ''),
        textCell(l.product ?? ''),
        textCell(l.customer ? `${l.customer.name} ${l.customer.mobile}` : ''),
        literal(l.transactionType === 'CREDIT' ? money(l.amount) : ''),
        literal(l.transactionType === 'DEBIT' ? money(l.amount) : ''),
        literal(l.tax === null ? '' : money(l.tax)),
        literal(money(l.balance)),
        literal(money(l.clearingBalance)),
      ].filter((cell) => cell !== literal('') && cell !== textCell('')),
    );
    expect(rows.length).toBeGreaterThan(0);
    // The heading row again on each new page.
    const body = lines.slice(4, -1).filter((line) => line !== heading);
    expect(body).toHaveLength(rows.length);
    body.forEach((line, i) => {
      expect(line).toMatch(new RegExp(`^${rows[i].join(' ')}$`, 'u'));
    });
    expect(lines.at(-1)).toBe(
      `Closing balance: available ${money(s.closing.balance)}, clearing ${money(s.closing.clearingBalance)}`,
    );
  });
});

describe('who reads a statement', () => {
  it('staff read any tier user’s; an employee too', async () => {
    const res = await fetchStatement(admin, { userId: retailerId(), month: '2030-05' });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual(statements.get('2030-05'));
    const employee = (await login(ctx.app, '9000000001', DEMO_PASSWORD)).token;
    const byEmployee = await fetchStatement(employee, { userId: retailerId(), month: '2030-05' });
    expect(byEmployee.status).toBe(200);
    expect(byEmployee.body.result.closing).toEqual(statements.get('2030-05')!.closing);
  });

  it('refuses another user’s statement to a tier user, even its own retailer’s', async () => {
    const other = await fetchStatement(retailer, { userId: ids['9300000001'], month: '2030-05' });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ message: 'User not found' });
    const distributor = (await login(ctx.app, '9200000001', DEMO_PASSWORD)).token;
    const below = await fetchStatement(distributor, { userId: ids['9300000001'], month: '2030-05' });
    expect(below.status).toBe(404);
    expect(below.body).toEqual({ message: 'User not found' });
    const own = await fetchStatement(distributor, { userId: ids['9200000001'], month: '2030-05' });
    expect(own.status).toBe(200);
  });

  it('refuses an unknown user, and a customer or staff member (they have no statement)', async () => {
    const unknown = await fetchStatement(admin, { userId: randomUUID(), month: '2030-05' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'User not found' });
    const employee = (await login(ctx.app, '9000000001', DEMO_PASSWORD)).user._id;
    for (const userId of [ids[CUSTOMER], employee]) {
      const none = await fetchStatement(admin, { userId, month: '2030-05' });
      expect(none.status).toBe(404);
      expect(none.body).toEqual({
        message: 'Only master distributors, distributors and retailers have statements',
      });
    }
  });

  it('refuses a bad month, user id or format with its message', async () => {
    const cases: [Record<string, string>, { msg: string; param: string }[]][] = [
      [
        { userId: retailerId(), month: '2030-13' },
        [{ msg: 'month must be a month such as 2026-11', param: 'month' }],
      ],
      [
        { userId: retailerId(), month: '2030-5' },
        [{ msg: 'month must be a month such as 2026-11', param: 'month' }],
      ],
      [{ userId: retailerId() }, [{ msg: 'month must be a month such as 2026-11', param: 'month' }]],
      [{ userId: 'nobody', month: '2030-05' }, [{ msg: 'userId must be a user id', param: 'userId' }]],
      [{ month: '2030-05' }, [{ msg: 'userId is required', param: 'userId' }]],
      [
        { userId: retailerId(), month: '2030-05', format: 'xls' },
        [{ msg: 'format must be json, csv or pdf', param: 'format' }],
      ],
      [
        { userId: retailerId(), month: '2030-05', format: 'pdf', lang: 'fr' },
        [{ msg: 'lang must be en or hi', param: 'lang' }],
      ],
    ];
    for (const [query, errors] of cases) {
      const res = await fetchStatement(retailer, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body).toEqual({ message: 'Invalid data!', errors });
    }
  });

  it('refuses a caller without a session, and a customer cannot sign in to read one', async () => {
    const res = await call(ctx.app, 'GET', 'statements/fetch', {
      query: { userId: retailerId(), month: '2030-05' },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Authentication required' });
    const customer = await call(ctx.app, 'POST', 'account/login', {
      body: { userName: CUSTOMER, password: DEMO_PASSWORD },
    });
    expect(customer.status).toBe(403);
    expect(customer.body.message).toBe('Customer login not allowed on panel. Please download app!');
  });
});

describe('the CSV writer', () => {
  // Last in the file: these payouts are written now, after the generated year's postings.
  it('neutralises text a spreadsheet would run as a formula, and writes money as plain numbers', async () => {
    for (const reference of ['=SUM(A1:A9)', '+1-2', '@cmd'])
      expect(
        (
          await call(ctx.app, 'POST', 'wallet/payout', {
            token: admin,
            body: { userId: retailerId(), amount: 0.01, reference },
          })
        ).status,
      ).toBe(200);
    const month = monthOf(new Date());
    const file = await download(retailer, { userId: retailerId(), month, format: 'csv' });
    const rows = parseCsv(file.text);
    const references = rows.filter((r) => r[2] === 'PAYOUT').map((r) => r[5]);
    expect(references.slice(-3)).toEqual(["'=SUM(A1:A9)", "'+1-2", "'@cmd"]);
    const payout = rows.filter((r) => r[2] === 'PAYOUT').at(-1)!;
    expect(payout[9]).toBe('0.01');
    expect(file.text).not.toMatch(/(^|,)'-?\d/m);
  });
});
