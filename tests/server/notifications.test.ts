import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readConfig } from '../../src/server/config';
import { announceStatements } from '../../src/server/modules/notifications/statements';
import { verifySignature } from '../../src/server/security/signature';
import { NOTIFY_MSG, WEBHOOK_EVENTS } from '../../src/shared/constants/notifications';
import { TIER_TYPES } from '../../src/shared/enums';
import { freePort } from '../free-port';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, type TestContext, XSRF } from './helpers';
import { deliver, idsByMobile, productIdOf, sell } from './selling';

/**
 * Notifications (issue 55): the outbox written in the change's transaction and its runner. A real SMTP sink
 * (smtp-server) receives the e-mails, a local HTTP receiver the signed webhooks and the SMS gateway's calls. Runs on
 * PGlite and, with DATABASE_URL, on PostgreSQL.
 */

const PERMISSION = 'You do not have permission to do this';
/** Long enough for a loaded machine; each wait ends as soon as what it waits for is there. */
const WAIT = { timeout: 30_000, interval: 50 };
const eventually = <T>(check: () => T | Promise<T>) => vi.waitFor(check, WAIT);
const SMS_SECRET = 'test-sms-secret';

interface Mail {
  to: string[];
  subject: string;
  text: string;
  messageId: string;
}

/** A header's MIME encoded-words (RFC 2047) decoded, consecutive ones joined before decoding. */
function decodeWords(value: string) {
  return value.replace(/(=\?UTF-8\?[BQ]\?[^?]*\?=\s*)+/gi, (run) => {
    const bytes: Buffer[] = [];
    for (const [, kind, text] of run.matchAll(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi))
      bytes.push(
        kind.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64')
          : Buffer.from(
              text
                .replace(/_/g, ' ')
                .replace(/=([0-9A-F]{2})/gi, (_, hex) => String.fromCharCode(parseInt(hex, 16))),
              'latin1',
            ),
      );
    return Buffer.concat(bytes).toString('utf8');
  });
}

/** A plain-text message as a mail client shows it: its subject and text, decoded. */
function readMail(raw: string, to: string[]): Mail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? Buffer.from(
            body
              .replace(/=\r\n/g, '')
              .replace(/=([0-9A-F]{2})/gi, (_, hex) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ).toString('utf8')
        : body;
  return { to, subject: decodeWords(header('Subject')), text: text.trim(), messageId: header('Message-ID') };
}

/** The SMTP sink: every message it accepted. */
const mails: Mail[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, session, done) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      mails.push(
        readMail(
          Buffer.concat(chunks).toString('latin1'),
          session.envelope.rcptTo.map((r) => r.address),
        ),
      );
      done();
    });
  },
});

interface Delivery {
  path: string;
  signature: string;
  raw: Buffer;
  body: Record<string, unknown>;
}

/** A local HTTP receiver (an integrator's endpoint, the SMS gateway): every POST it got. */
function receiver() {
  const got: Delivery[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      got.push({
        path: request.url ?? '',
        signature: String(request.headers['x-tierdesk-signature'] ?? ''),
        raw,
        body: JSON.parse(raw.toString('utf8')),
      });
      response.writeHead(204).end();
    });
  });
  return {
    got,
    listen: (port = 0) =>
      new Promise<number>((resolve) =>
        server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let ctx: TestContext;
let admin: string;
let adminId: string;
let employee: string;
let employeeId: string;
let retailer: string;
let retailerId: string;
const gateway = receiver();
const hooks = receiver();
let hooksOrigin: string;

const mailsTo = (address: string) => mails.filter((m) => m.to.includes(address));
const emailOf = async (id: string) =>
  (await ctx.database.pool.query<{ email: string }>('select email from users where id = $1', [id])).rows[0]
    .email;

let referenceCounter = 0;
const reference = () => `NOTIFY-REF-${++referenceCounter}`;

/** Funds the retailer: the employee asks for an adjustment (waits), the admin approves it. */
async function fund(amount: number) {
  const made = await call(ctx.app, 'POST', 'wallet/adjust', {
    token: employee,
    body: { userId: retailerId, amount, note: 'Float', reason: 'Opening float for the test' },
  });
  expect(made.status).toBe(202);
  const approved = await call(ctx.app, 'POST', `approvals/approve/${made.body.result._id}`, { token: admin });
  expect(approved.status).toBe(200);
}

const deliveries = async (query: Record<string, string> = {}) =>
  (await call(ctx.app, 'GET', 'notifications/fetch', { token: admin, query: { limit: '100', ...query } }))
    .body.result.notifications as {
    _id: string;
    event: string;
    channel: string;
    recipient: string;
    status: string;
    attempts: number;
    lastError: string | null;
  }[];

beforeAll(async () => {
  const smtpPort = await new Promise<number>((resolve) =>
    smtp.listen(0, '127.0.0.1', () => resolve((smtp.server.address() as AddressInfo).port)),
  );
  const gatewayPort = await gateway.listen();
  hooksOrigin = `http://127.0.0.1:${await hooks.listen()}`;
  ctx = await makeTestContext({
    config: {
      notify: {
        ...readConfig({}).notify,
        smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
        mailFrom: 'Tierdesk <desk@example.com>',
        smsGatewayUrl: `http://127.0.0.1:${gatewayPort}/sms`,
        smsGatewaySecret: SMS_SECRET,
        smsTemplateIds: { 'payout.paid': '1107000000000000001' },
        // The runner looks often and tries a failed delivery again soon, so the waits below are short.
        intervalMs: 50,
        firstRetryMs: 200,
      },
    },
  });
  // The sandbox partner is a real HTTP endpoint: the server must listen for it to be reached.
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const signedIn = await login(ctx.app, ADMIN.userName, ADMIN.password);
  admin = signedIn.token;
  adminId = signedIn.user._id;
  // The bootstrap admin has no e-mail address; this network's admin gave one.
  await ctx.database.pool.query(`update users set email = 'admin@example.com' where id = $1`, [adminId]);
  const staff = await login(ctx.app, '9000000001', DEMO_PASSWORD);
  employee = staff.token;
  employeeId = staff.user._id;
  retailer = (await login(ctx.app, '9300000001', DEMO_PASSWORD)).token;
  retailerId = (await idsByMobile(ctx.app, admin))['9300000001'];
});

afterAll(async () => {
  await ctx.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await gateway.close();
  await hooks.close();
});

describe('e-mail through SMTP, in the recipient’s language', () => {
  it('tells the admins of a command waiting, and its maker of the decision, in English and in Hindi', async () => {
    // The employee reads Hindi (the panel's last choice); the admin has chosen nothing: English.
    const chosen = await call(ctx.app, 'POST', 'notifications/preferences', {
      token: employee,
      body: { language: 'hi' },
    });
    expect(chosen.status).toBe(200);
    expect(chosen.body).toEqual({
      result: { language: 'hi', email: true, sms: true },
      message: NOTIFY_MSG.preferencesSaved,
    });
    const employeeEmail = await emailOf(employeeId);

    await fund(500);
    await eventually(() => {
      expect(mailsTo(employeeEmail)).toHaveLength(1);
      expect(mailsTo('admin@example.com')).toHaveLength(1);
    });
    const waiting = mailsTo('admin@example.com');
    expect(waiting[0].subject).toBe('A command waits for your approval');
    expect(waiting[0].text).toMatch(/^An adjustment \(₹500(\.00)?\), made by .+, waits for your approval\./);
    expect(mailsTo(employeeEmail)[0].subject).toBe('आपका अनुरोध स्वीकृत हुआ');
    expect(mailsTo(employeeEmail)[0].text).toContain('एक समायोजन');

    // A rejection tells the reason, in Hindi.
    const made = await call(ctx.app, 'POST', 'wallet/adjust', {
      token: employee,
      body: { userId: retailerId, amount: 300, note: 'Float', reason: 'A second float' },
    });
    const rejected = await call(ctx.app, 'POST', `approvals/reject/${made.body.result._id}`, {
      token: admin,
      body: { reason: 'Not agreed with the distributor' },
    });
    expect(rejected.status).toBe(200);
    await eventually(() => expect(mailsTo(employeeEmail)).toHaveLength(2));
    const rejection = mailsTo(employeeEmail)[1];
    expect(rejection.subject).toBe('आपका अनुरोध अस्वीकृत हुआ');
    expect(rejection.text).toContain('कारण: Not agreed with the distributor');
  });

  it('tells a tier user of its payout by e-mail, and a retailer by a signed SMS, in English then in Hindi', async () => {
    const retailerEmail = await emailOf(retailerId);
    const paid = await call(ctx.app, 'POST', 'wallet/payout', {
      token: admin,
      body: { userId: retailerId, amount: 120, reference: reference() },
    });
    expect(paid.status).toBe(200);
    await eventually(() => expect(mailsTo(retailerEmail)).toHaveLength(1));
    expect(mailsTo(retailerEmail)[0].subject).toBe('Your payout has been paid');
    expect(mailsTo(retailerEmail)[0].text).toMatch(
      /^A payout of ₹120(\.00)? has been paid to your bank account\./,
    );

    await eventually(() => expect(gateway.got).toHaveLength(1));
    const sms = gateway.got[0];
    expect(sms.path).toBe('/sms');
    expect(verifySignature(SMS_SECRET, sms.signature, sms.raw)).toBe('ok');
    expect(sms.body).toMatchObject({
      to: '9300000001',
      templateId: '1107000000000000001',
      params: { amount: 120 },
    });
    expect(sms.body.text).toMatch(/^Tierdesk: payout of ₹120(\.00)? paid\./);

    // The retailer chooses Hindi in the panel: the next payout's e-mail and SMS are in Hindi.
    await call(ctx.app, 'POST', 'notifications/preferences', { token: retailer, body: { language: 'hi' } });
    await call(ctx.app, 'POST', 'wallet/payout', {
      token: admin,
      body: { userId: retailerId, amount: 80, reference: reference() },
    });
    await eventually(() => expect(mailsTo(retailerEmail)).toHaveLength(2));
    expect(mailsTo(retailerEmail)[1].subject).toBe('आपका भुगतान हो गया');
    expect(mailsTo(retailerEmail)[1].text).toContain('का भुगतान आपके बैंक खाते में किया गया');
    await eventually(() => expect(gateway.got).toHaveLength(2));
    expect(gateway.got[1].body.text).toContain('का भुगतान किया गया');

    // Without SMS, the next payout sends only the e-mail.
    const off = await call(ctx.app, 'POST', 'notifications/preferences', {
      token: retailer,
      body: { sms: false },
    });
    expect(off.body.result).toEqual({ language: 'hi', email: true, sms: false });
    await call(ctx.app, 'POST', 'wallet/payout', {
      token: admin,
      body: { userId: retailerId, amount: 10, reference: reference() },
    });
    await eventually(() => expect(mailsTo(retailerEmail)).toHaveLength(3));
    const smsRows = (await deliveries({ channel: 'SMS' })).filter((d) => d.event === 'payout.paid');
    expect(smsRows).toHaveLength(2);
    expect(smsRows.every((d) => d.recipient === '93XXXXXX01' && d.status === 'SENT')).toBe(true);
  });
});

describe('the monthly statement', () => {
  it('once a month has ended in India, each tier user with an address is told once, in its language, however many servers try', async () => {
    await call(ctx.app, 'POST', 'notifications/preferences', { token: retailer, body: { language: 'hi' } });
    const told = (
      await ctx.database.pool.query<{ email: string; language: string }>(
        `select email, language from users
          where type = any($1) and status = 'ACTIVE' and email is not null and notify_email`,
        [TIER_TYPES],
      )
    ).rows;
    expect(told.some((u) => u.language === 'hi')).toBe(true);
    expect(told.some((u) => u.language === 'en')).toBe(true);
    const statementMails = (address: string) =>
      mailsTo(address).filter(
        (m) => /January 2031|जनवरी 2031/.test(m.text) && /statement|विवरण/.test(m.subject),
      );

    // Half a minute into 1 February in India (still 31 January in UTC): January has ended. Two servers at once.
    const now = new Date('2031-02-01T00:00:30+05:30');
    const written = await Promise.all([
      announceStatements(ctx.database.db, now),
      announceStatements(ctx.database.db, now),
    ]);
    expect([...written].sort((a, b) => a - b)).toEqual([0, told.length]);
    await eventually(() => {
      for (const user of told) expect(statementMails(user.email)).toHaveLength(1);
    });
    for (const user of told) {
      const [mail] = statementMails(user.email);
      expect(mail.subject).toBe(
        user.language === 'hi' ? 'आपका मासिक विवरण तैयार है' : 'Your monthly statement is ready',
      );
      expect(mail.text).toBe(
        user.language === 'hi'
          ? 'जनवरी 2031 का आपका विवरण Tierdesk में तैयार है।'
          : 'Your statement for January 2031 is ready in Tierdesk.',
      );
    }

    // The job again, on either server, writes and sends nothing more.
    expect(await announceStatements(ctx.database.db, now)).toBe(0);
    const rows = async () =>
      (await deliveries({ channel: 'EMAIL' })).filter((d) => d.event === 'statement.ready');
    await eventually(async () => expect((await rows()).every((d) => d.status === 'SENT')).toBe(true));
    expect(await rows()).toHaveLength(told.length);
    for (const user of told) expect(statementMails(user.email)).toHaveLength(1);
  });
});

describe('webhooks', () => {
  it('are registered by an admin, who sees the secret once; every delivery is signed with it and carries its id', async () => {
    const created = await call(ctx.app, 'POST', 'webhooks/create', {
      token: admin,
      body: { url: `${hooksOrigin}/tierdesk`, events: ['payout.paid', 'approval.decided'] },
    });
    expect(created.status).toBe(200);
    expect(created.body.message).toBe(NOTIFY_MSG.webhookCreated);
    const { _id, secret } = created.body.result;
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const listed = await call(ctx.app, 'GET', 'webhooks/fetch', { token: admin });
    expect(listed.body.result.webhooks).toEqual([
      {
        _id,
        url: `${hooksOrigin}/tierdesk`,
        events: ['payout.paid', 'approval.decided'],
        createdAt: expect.any(String),
      },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const paidReference = reference();
    const paid = await call(ctx.app, 'POST', 'wallet/payout', {
      token: admin,
      body: { userId: retailerId, amount: 5, reference: paidReference },
    });
    await eventually(() => expect(hooks.got.some((d) => d.body.event === 'payout.paid')).toBe(true));
    const delivery = hooks.got.find((d) => d.body.event === 'payout.paid')!;
    expect(verifySignature(secret, delivery.signature, delivery.raw)).toBe('ok');
    expect(delivery.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(delivery.body).toEqual({
      id: expect.any(String),
      event: 'payout.paid',
      createdAt: expect.any(String),
      data: {
        postingId: paid.body.result._id,
        userId: retailerId,
        amount: 5,
        reference: paidReference,
        paidAt: expect.any(String),
      },
    });
    const rows = await deliveries({ channel: 'WEBHOOK' });
    expect(rows.find((r) => r._id === delivery.body.id)).toMatchObject({
      status: 'SENT',
      attempts: 1,
      recipient: `${hooksOrigin}/tierdesk`,
    });

    // An event it did not subscribe to is not sent to it.
    const update = await call(ctx.app, 'POST', `webhooks/update/${_id}`, {
      token: admin,
      body: { url: `${hooksOrigin}/tierdesk`, events: ['sale.confirmed'] },
    });
    expect(update.status).toBe(200);
    expect(update.body.message).toBe(NOTIFY_MSG.webhookUpdated);
    const before = (await deliveries({ channel: 'WEBHOOK' })).length;
    await call(ctx.app, 'POST', 'wallet/payout', {
      token: admin,
      body: { userId: retailerId, amount: 5, reference: reference() },
    });
    expect((await deliveries({ channel: 'WEBHOOK' })).length).toBe(before);
    const deleted = await call(ctx.app, 'POST', `webhooks/delete/${_id}`, { token: admin });
    expect(deleted.body).toEqual({ result: true, message: NOTIFY_MSG.webhookDeleted });
    expect((await call(ctx.app, 'GET', 'webhooks/fetch', { token: admin })).body.result.webhooks).toEqual([]);
  });

  it('a sale confirmed reaches its retailer by SMS and the integrators by webhook, with the sale', async () => {
    await call(ctx.app, 'POST', 'notifications/preferences', {
      token: retailer,
      body: { sms: true, language: 'en' },
    });
    const created = await call(ctx.app, 'POST', 'webhooks/create', {
      token: admin,
      body: { url: `${hooksOrigin}/sales`, events: ['sale.confirmed'] },
    });
    const customers = await call(ctx.app, 'GET', 'account/fetch', { token: retailer, query: { type: '1' } });
    const sale = await sell(ctx.app, retailer, {
      customerId: customers.body.result.users[0]._id,
      productId: await productIdOf(ctx.app, admin),
    });
    const smsBefore = gateway.got.length;
    const confirmed = await deliver(ctx.app, {
      event: 'account.opened',
      utmCode: sale.utmCode,
      merchantCode: sale.merchantCode,
    });
    expect(confirmed.status).toBe(200);
    await eventually(() => expect(hooks.got.some((d) => d.path === '/sales')).toBe(true));
    const delivery = hooks.got.find((d) => d.path === '/sales')!;
    expect(verifySignature(created.body.result.secret, delivery.signature, delivery.raw)).toBe('ok');
    expect(delivery.body).toMatchObject({
      event: 'sale.confirmed',
      data: { saleId: sale.recorded.body.result._id, utmCode: sale.utmCode, status: 'CONFIRMED', retailerId },
    });
    await eventually(() => expect(gateway.got.length).toBe(smsBefore + 1));
    expect(gateway.got.at(-1)?.body.text).toMatch(
      new RegExp(`^Tierdesk: sale ${sale.utmCode} confirmed\\. Commission ₹`),
    );
    await call(ctx.app, 'POST', `webhooks/delete/${created.body.result._id}`, { token: admin });
  });

  it('a bulk import raises user.created for each user it creates, as the account form does', async () => {
    const created = await call(ctx.app, 'POST', 'webhooks/create', {
      token: admin,
      body: { url: `${hooksOrigin}/users`, events: ['user.created'] },
    });
    expect(created.status).toBe(200);
    const mobiles = ['9760000001', '9760000002'];
    const csv = `name,email,mobile,userName,state,district,tehsil,masterDistributorMobile\n${mobiles
      .map((m) => `Person ${m},p${m}@example.com,${m},u${m},Rajasthan,Jaipur,Sanganer,9100000001`)
      .join('\n')}\n`;
    const boundary = '----tierdesk-notify-import';
    const field = (name: string, value: string) =>
      `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const started = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/import/distributors',
      headers: {
        'x-auth-token': `bearer ${admin}`,
        cookie: `XSRF-TOKEN=${XSRF}`,
        'x-xsrf-token': XSRF,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: `${field('dryRun', 'false')}--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="people.csv"\r\ncontent-type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
    });
    expect(started.statusCode, started.body).toBe(200);
    const jobId = started.json().result._id;
    await expect
      .poll(
        async () =>
          (await call(ctx.app, 'GET', `import/fetch/${jobId}`, { token: admin })).body.result.status,
        WAIT,
      )
      .toBe('DONE');
    const newIds = (
      await ctx.database.pool.query<{ id: string }>('select id from users where mobile = any($1)', [mobiles])
    ).rows.map((r) => r.id);
    expect(newIds).toHaveLength(2);

    await eventually(() => expect(hooks.got.filter((d) => d.path === '/users')).toHaveLength(2));
    const got = hooks.got.filter((d) => d.path === '/users');
    for (const delivery of got)
      expect(verifySignature(created.body.result.secret, delivery.signature, delivery.raw)).toBe('ok');
    expect(
      got.map((d) => d.body.data as { userId: string }).sort((a, b) => a.userId.localeCompare(b.userId)),
    ).toEqual(newIds.sort().map((userId) => ({ userId, type: 3, createdAt: expect.any(String) })));
    expect(got.every((d) => d.body.event === 'user.created')).toBe(true);
    await call(ctx.app, 'POST', `webhooks/delete/${created.body.result._id}`, { token: admin });
  });

  it('reach a receiver that was down once it is back: every id at least once, none lost', async () => {
    const port = await freePort();
    const late = receiver();
    const created = await call(ctx.app, 'POST', 'webhooks/create', {
      token: admin,
      body: { url: `http://127.0.0.1:${port}/late`, events: ['payout.paid'] },
    });
    const endpoint = `http://127.0.0.1:${port}/late`;
    for (let i = 0; i < 3; i++)
      await call(ctx.app, 'POST', 'wallet/payout', {
        token: admin,
        body: { userId: retailerId, amount: 1, reference: reference() },
      });
    const ours = async () =>
      (await deliveries({ channel: 'WEBHOOK' })).filter((d) => d.recipient === endpoint);
    // Down: every delivery is tried, fails, and waits for its next attempt.
    await eventually(async () => {
      const rows = await ours();
      expect(rows).toHaveLength(3);
      for (const row of rows) {
        expect(row.status).toBe('PENDING');
        expect(row.attempts).toBeGreaterThanOrEqual(1);
        expect(row.lastError).toBeTruthy();
      }
    });
    // Back up: each one arrives.
    await late.listen(port);
    try {
      const ids = (await ours()).map((d) => d._id);
      await eventually(() => expect(new Set(late.got.map((d) => d.body.id))).toEqual(new Set(ids)));
      for (const d of late.got)
        expect(verifySignature(created.body.result.secret, d.signature, d.raw)).toBe('ok');
      await eventually(async () => expect((await ours()).every((d) => d.status === 'SENT')).toBe(true));
    } finally {
      await late.close();
    }
  });

  it('Retry now tries a delivery not sent again at once; one already sent is refused', async () => {
    const port = await freePort();
    const endpoint = `http://127.0.0.1:${port}/retry`;
    const created = await call(ctx.app, 'POST', 'webhooks/create', {
      token: admin,
      body: { url: endpoint, events: ['payout.paid'] },
    });
    await call(ctx.app, 'POST', 'wallet/payout', {
      token: admin,
      body: { userId: retailerId, amount: 1, reference: reference() },
    });
    const ours = async () =>
      (await deliveries({ channel: 'WEBHOOK' })).find((d) => d.recipient === endpoint)!;
    await eventually(async () => expect((await ours()).attempts).toBeGreaterThanOrEqual(1));
    // Deleted: its delivery waits no more.
    await call(ctx.app, 'POST', `webhooks/delete/${created.body.result._id}`, { token: admin });
    const failed = await ours();
    expect(failed).toMatchObject({ status: 'FAILED', lastError: NOTIFY_MSG.endpointDeleted });
    const retried = await call(ctx.app, 'POST', `notifications/retry/${failed._id}`, { token: admin });
    expect(retried.body).toEqual({ result: true, message: NOTIFY_MSG.retryQueued });
    await eventually(async () =>
      expect(await ours()).toMatchObject({
        status: 'FAILED',
        attempts: failed.attempts + 1,
        lastError: 'the webhook endpoint was deleted',
      }),
    );

    const sent = (await deliveries({ status: 'SENT' }))[0];
    const again = await call(ctx.app, 'POST', `notifications/retry/${sent._id}`, { token: admin });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(NOTIFY_MSG.alreadySent);
    const missing = await call(ctx.app, 'POST', 'notifications/retry/00000000-0000-4000-8000-000000000000', {
      token: admin,
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(NOTIFY_MSG.notificationNotFound);
  });
});

describe('refusals', () => {
  it('the webhooks and notifications screens are an admin’s: others are refused', async () => {
    for (const token of [employee, retailer]) {
      for (const [method, path, body] of [
        ['GET', 'webhooks/fetch'],
        ['POST', 'webhooks/create', { url: 'https://example.com/hook', events: ['sale.confirmed'] }],
        ['GET', 'notifications/fetch'],
        ['POST', 'notifications/retry/00000000-0000-4000-8000-000000000000'],
      ] as const) {
        const res = await call(ctx.app, method, path, { token, body });
        expect(res.status).toBe(403);
        expect(res.body.message).toBe(PERMISSION);
      }
    }
  });

  it('a bad URL, no events, an unknown event, an unknown endpoint, a bad filter or language', async () => {
    const bad = async (path: string, body: unknown, message: string) => {
      const res = await call(ctx.app, 'POST', path, { token: admin, body });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { msg: string }) => e.msg)).toContain(message);
    };
    await bad(
      'webhooks/create',
      { url: 'ftp://example.com/x', events: ['sale.confirmed'] },
      NOTIFY_MSG.webhookUrl,
    );
    await bad('webhooks/create', { url: 'not a url', events: ['sale.confirmed'] }, NOTIFY_MSG.webhookUrl);
    await bad('webhooks/create', { url: 'https://example.com/x', events: [] }, NOTIFY_MSG.webhookEvents);
    await bad(
      'webhooks/create',
      { url: 'https://example.com/x', events: ['sale.opened'] },
      NOTIFY_MSG.webhookEvents,
    );
    await bad('notifications/preferences', { language: 'fr' }, NOTIFY_MSG.invalidLanguage);
    const unknown = await call(ctx.app, 'POST', 'webhooks/update/00000000-0000-4000-8000-000000000000', {
      token: admin,
      body: { url: 'https://example.com/x', events: [...WEBHOOK_EVENTS] },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(NOTIFY_MSG.webhookNotFound);
    const gone = await call(ctx.app, 'POST', 'webhooks/delete/00000000-0000-4000-8000-000000000000', {
      token: admin,
    });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe(NOTIFY_MSG.webhookNotFound);
    for (const [query, message] of [
      [{ status: 'LOST' }, NOTIFY_MSG.invalidStatus],
      [{ channel: 'FAX' }, NOTIFY_MSG.invalidChannel],
    ] as const) {
      const res = await call(ctx.app, 'GET', 'notifications/fetch', { token: admin, query });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { msg: string }) => e.msg)).toContain(message);
    }
  });
});

describe('configuration', () => {
  it('reads SMTP_URL, MAIL_FROM, SMS_GATEWAY_URL, SMS_GATEWAY_SECRET and SMS_TEMPLATE_IDS, and refuses bad ones', () => {
    const notify = readConfig({
      SMTP_URL: 'smtp://127.0.0.1:2525',
      MAIL_FROM: 'Desk <desk@example.com>',
      SMS_GATEWAY_URL: 'https://sms.example.com/send',
      SMS_GATEWAY_SECRET: 's',
      SMS_TEMPLATE_IDS: 'sale.confirmed=1107161234567890123, payout.paid=1107161234567890124',
    }).notify;
    expect(notify).toMatchObject({
      smtpUrl: 'smtp://127.0.0.1:2525',
      mailFrom: 'Desk <desk@example.com>',
      smsGatewayUrl: 'https://sms.example.com/send',
      smsGatewaySecret: 's',
      smsTemplateIds: { 'sale.confirmed': '1107161234567890123', 'payout.paid': '1107161234567890124' },
    });
    expect(() => readConfig({ SMTP_URL: 'http://mail' })).toThrow(
      'SMTP_URL must be a smtp:// or smtps:// URL',
    );
    expect(() => readConfig({ SMS_GATEWAY_URL: 'gateway' })).toThrow(
      'SMS_GATEWAY_URL must be a http:// or https:// URL',
    );
    expect(() => readConfig({ SMS_TEMPLATE_IDS: 'sale.confirmed' })).toThrow(/^SMS_TEMPLATE_IDS must be/);
  });
});
