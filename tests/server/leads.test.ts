import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applicantAadhar, applicationSections, PDF, PNG, type SectionOverrides } from './application';
import {
  ADMIN,
  call,
  DEMO_PASSWORD,
  INITIAL_PASSWORD,
  login,
  makeTestContext,
  type TestContext,
  XSRF,
} from './helpers';

let ctx: TestContext;
let admin: string;
let employee: string;
let retailer: string;
let place: { stateId: string; districtId: string; tehsilId: string };
let otherStateId: string;
let ipCounter = 0;
const freshIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

// Real file bytes beside the shared PNG and PDF: a JPEG header and an HTML page.
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0'),
  Buffer.alloc(200, 1),
]);
const HTML = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');

const aadhar = applicantAadhar;
const sections = (over: SectionOverrides = {}) => applicationSections(place, over);

interface Application {
  parts?: Record<string, string | undefined>;
  leadType?: string | undefined;
  picture?: { bytes: Buffer; name: string; type: string } | null;
  document?: { bytes: Buffer; name: string; type: string } | null;
  ip?: string;
}

/** A real multipart body, as the browser's FormData builds it. */
async function multipartBody(app: Application = {}) {
  const form = new FormData();
  const parts = {
    ...Object.fromEntries(Object.entries(sections()).map(([k, v]) => [k, JSON.stringify(v)])),
    ...app.parts,
  };
  for (const [name, value] of Object.entries(parts)) if (value !== undefined) form.append(name, value);
  const leadType = 'leadType' in app ? app.leadType : 'RETAILER';
  if (leadType !== undefined) form.append('leadType', leadType);
  const picture = app.picture === undefined ? { bytes: PNG, name: 'me.png', type: 'image/png' } : app.picture;
  const document =
    app.document === undefined ? { bytes: PDF, name: 'pan.pdf', type: 'application/pdf' } : app.document;
  if (picture)
    form.append('picture', new Blob([new Uint8Array(picture.bytes)], { type: picture.type }), picture.name);
  if (document)
    form.append(
      'document',
      new Blob([new Uint8Array(document.bytes)], { type: document.type }),
      document.name,
    );
  const request = new Request('http://x/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type')!,
  };
}

const postLead = (payload: Buffer | string, contentType: string, ip = freshIp()) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/leads/create',
    remoteAddress: ip,
    headers: { 'content-type': contentType, cookie: `XSRF-TOKEN=${XSRF}`, 'x-xsrf-token': XSRF },
    payload,
  });

/** Sends a real multipart body, as the browser's FormData does. */
async function apply(app: Application = {}) {
  const { payload, contentType } = await multipartBody(app);
  const response = await postLead(payload, contentType, app.ip);
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

const uploads = () => path.join(ctx.config.dataDir, 'uploads');
/** A request's temporary files in this server's uploads directory: none once it has been answered. */
const tempFiles = () => (fs.existsSync(uploads()) ? fs.readdirSync(uploads()) : []);
/** Files stored in the database (modules/leads/files.ts), and their chunks. */
const stored = async () =>
  (
    await ctx.database.pool.query<{ files: number; chunks: number }>(
      'select (select count(*) from stored_files)::int as files, (select count(*) from stored_file_chunks)::int as chunks',
    )
  ).rows[0];
const leadCount = async () =>
  (await call(ctx.app, 'GET', 'leads/fetch', { token: admin, query: { limit: '100' } })).body.result
    .totalCounts as number;

beforeAll(async () => {
  ctx = await makeTestContext();
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  employee = (await login(ctx.app, '9000000001', DEMO_PASSWORD)).token;
  retailer = (await login(ctx.app, '9300000001', DEMO_PASSWORD)).token;
  const tehsil = (await call(ctx.app, 'GET', 'tehsil/fetch', { query: { limit: '1' } })).body.result
    .tehsil[0];
  place = { stateId: tehsil.stateId._id, districtId: tehsil.districtId._id, tehsilId: tehsil._id };
  const states = (await call(ctx.app, 'GET', 'state/fetch', {})).body.result.state;
  otherStateId = states.find((s: { _id: string }) => s._id !== place.stateId)._id;
});
afterAll(async () => {
  await ctx?.close();
});

/** Runs a refused application and checks it left no lead row and no file behind. */
async function refused(app: Application, status: number, error: { msg: string; param?: string }) {
  const leadsBefore = await leadCount();
  const filesBefore = await stored();
  const res = await apply(app);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (error.param) expect(res.body.errors ?? [], JSON.stringify(res.body)).toContainEqual(error);
  else expect(res.body.message).toBe(error.msg);
  expect(await leadCount()).toBe(leadsBefore);
  expect(await stored()).toEqual(filesBefore);
  expect(tempFiles()).toEqual([]);
  return res;
}

describe('POST leads/create', () => {
  it('accepts a whole application with its picture and document', async () => {
    const filesBefore = await stored();
    const res = await apply();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe(
      'Thank you for submiting your details. We have received your application, we will review and get back to you soon!',
    );
    // Both files are in the database (one chunk each, they are small); none is left in the uploads directory.
    expect(await stored()).toEqual({ files: filesBefore.files + 2, chunks: filesBefore.chunks + 2 });
    expect(tempFiles()).toEqual([]);
    const detail = await call(ctx.app, 'GET', 'leads/fetch', {
      token: admin,
      query: { _id: res.body.result._id },
    });
    const lead = detail.body.result.leads[0];
    expect(lead).toMatchObject({
      leadType: 'RETAILER',
      status: 'NEW',
      applicantName: 'Kiran Patil',
      establishmentName: 'Kiran Mobile Point',
      mobile: '9876543210',
      otherBusinessInfo: { panNumber: 'ABCDE1234F', aadharNumber: `XXXXXXXX${aadhar(1).slice(-4)}` },
      bankInfo: { ifscCode: 'SBIN0001234' },
      picture: { mime: 'image/png', size: PNG.length },
      document: { mime: 'application/pdf', name: 'pan.pdf' },
    });
    expect(JSON.stringify(detail.body)).not.toContain(aadhar(1));
  });

  it('keeps an Aadhar number given as the identity proof encrypted and shows it masked', async () => {
    const proofNumber = aadhar(9);
    const parts = Object.fromEntries(
      Object.entries(sections({ identityProof: { type: 'AADHAR', documentNumber: proofNumber } })).map(
        ([k, v]) => [k, JSON.stringify(v)],
      ),
    );
    const res = await apply({ parts });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const detail = await call(ctx.app, 'GET', 'leads/fetch', {
      token: admin,
      query: { _id: res.body.result._id },
    });
    expect(detail.body.result.leads[0].identityProof).toEqual({
      type: 'AADHAR',
      documentNumber: `XXXXXXXX${proofNumber.slice(-4)}`,
    });
    expect(JSON.stringify(detail.body)).not.toContain(proofNumber);
    const stored = await ctx.database.pool.query(
      'select sections::text as s, identity_number_cipher as c from leads where id = $1',
      [res.body.result._id],
    );
    expect(stored.rows[0].s).not.toContain(proofNumber);
    expect(stored.rows[0].s).not.toContain(aadhar(1));
    expect(ctx.app.cipher.decrypt(stored.rows[0].c)).toBe(proofNumber);
  });

  it('refuses each missing part with its own message', async () => {
    for (const part of [
      'applicantInfo',
      'businessInfo',
      'permanentAddress',
      'otherBusinessInfo',
      'bankInfo',
      'identityProof',
    ]) {
      await refused({ parts: { [part]: undefined } }, 400, { msg: `${part} is required`, param: part });
    }
    await refused({ leadType: undefined }, 400, { msg: 'leadType is required', param: 'leadType' });
    await refused({ picture: null }, 400, {
      msg: 'Photo is required to proceed for verification',
      param: 'picture',
    });
    await refused({ document: null }, 400, { msg: 'At least one document is required', param: 'document' });
    const none = await refused({ picture: null, document: null }, 400, {
      msg: 'At least one document is required',
      param: 'document',
    });
    expect(none.body.message).toBe('All fields are required to proceed for verification');
  });

  it('refuses bad JSON in a part', async () => {
    await refused({ parts: { bankInfo: '{"bankName": "SBI",' } }, 400, {
      msg: 'bankInfo must be valid JSON',
      param: 'bankInfo',
    });
  });

  it('checks every field rule', async () => {
    const cases: [Record<string, Record<string, unknown>>, string, string][] = [
      [{ applicantInfo: { name: '' } }, 'applicantInfo.name', 'This field is required'],
      [{ applicantInfo: { gender: 'Other' } }, 'applicantInfo.gender', 'Must be one of Male, Female'],
      [{ businessInfo: { pincode: '41100' } }, 'businessInfo.pincode', 'Pincode must be 6 digits'],
      [{ businessInfo: { mobile: '98765' } }, 'businessInfo.mobile', 'Invalid mobile number'],
      [{ businessInfo: { email: 'kiran@' } }, 'businessInfo.email', 'Invalid email'],
      [
        { businessInfo: { ownershipType: 'Leased' } },
        'businessInfo.ownershipType',
        'Must be one of Rented, Owned',
      ],
      [
        { businessInfo: { yearsInLocation: 'many' } },
        'businessInfo.yearsInLocation',
        'Years in location must be a whole number from 0 to 100',
      ],
      [
        { permanentAddress: { permanentAddressPincode: 'abcdef' } },
        'permanentAddress.permanentAddressPincode',
        'Pincode must be 6 digits',
      ],
      [{ otherBusinessInfo: { panNumber: 'ABCDE12345' } }, 'otherBusinessInfo.panNumber', 'Invalid value'],
      [
        { otherBusinessInfo: { aadharNumber: '12345' } },
        'otherBusinessInfo.aadharNumber',
        'Aadhar length should be 12 digits',
      ],
      [
        {
          otherBusinessInfo: { aadharNumber: `${aadhar(2).slice(0, 11)}${(Number(aadhar(2)[11]) + 1) % 10}` },
        },
        'otherBusinessInfo.aadharNumber',
        'Invalid Aadhar number',
      ],
      [{ bankInfo: { ifscCode: 'SBIN1234567' } }, 'bankInfo.ifscCode', 'Invalid IFSC code'],
      [
        { bankInfo: { accountNumber: '12ab' } },
        'bankInfo.accountNumber',
        'Account number must be 9 to 18 digits',
      ],
      [
        { identityProof: { type: 'PASSPORT' } },
        'identityProof.type',
        'Must be one of AADHAR, PAN, VOTERID, DL, OTHER',
      ],
      [{ identityProof: { documentNumber: ' ' } }, 'identityProof.documentNumber', 'This field is required'],
      [
        { identityProof: { type: 'PAN', documentNumber: 'ABC' } },
        'identityProof.documentNumber',
        'Invalid value',
      ],
      [
        { identityProof: { type: 'AADHAR', documentNumber: '1234' } },
        'identityProof.documentNumber',
        'Aadhar length should be 12 digits',
      ],
      [
        {
          identityProof: {
            type: 'AADHAR',
            documentNumber: `${aadhar(3).slice(0, 11)}${(Number(aadhar(3)[11]) + 1) % 10}`,
          },
        },
        'identityProof.documentNumber',
        'Invalid Aadhar number',
      ],
    ];
    for (const [over, param, msg] of cases) {
      const parts = Object.fromEntries(
        Object.entries(sections(over)).map(([k, v]) => [k, JSON.stringify(v)]),
      );
      await refused({ parts }, 400, { msg, param });
    }
    await refused({ leadType: 'AGENT' }, 400, {
      msg: 'Lead type must be RETAILER or DISTRIBUTOR',
      param: 'leadType',
    });
  });

  it('checks that state, district and tehsil exist and chain', async () => {
    const wrongState = Object.fromEntries(
      Object.entries(sections({ businessInfo: { stateId: otherStateId } })).map(([k, v]) => [
        k,
        JSON.stringify(v),
      ]),
    );
    await refused({ parts: wrongState }, 400, {
      msg: 'Selected district does not belong to the selected state',
      param: 'businessInfo.districtId',
    });
    const unknown = Object.fromEntries(
      Object.entries(
        sections({ permanentAddress: { permanentStateId: '00000000-0000-4000-8000-000000000000' } }),
      ).map(([k, v]) => [k, JSON.stringify(v)]),
    );
    await refused({ parts: unknown }, 400, {
      msg: 'Selected state does not exist',
      param: 'permanentAddress.permanentStateId',
    });
    for (const [field, param, msg] of [
      ['districtId', 'businessInfo.districtId', 'Selected district does not exist'],
      ['tehsilId', 'businessInfo.tehsilId', 'Selected tehsil does not exist'],
    ]) {
      const missing = Object.fromEntries(
        Object.entries(sections({ businessInfo: { [field]: '00000000-0000-4000-8000-000000000000' } })).map(
          ([k, v]) => [k, JSON.stringify(v)],
        ),
      );
      await refused({ parts: missing }, 400, { msg, param });
    }
  });

  it('refuses oversize files and an oversize request', async () => {
    const bigPicture = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    await refused({ picture: { bytes: bigPicture, name: 'big.png', type: 'image/png' } }, 413, {
      msg: 'Picture must be at most 2 MB',
    });
    const bigDocument = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024)]);
    await refused({ document: { bytes: bigDocument, name: 'big.pdf', type: 'application/pdf' } }, 413, {
      msg: 'Document must be at most 5 MB',
    });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/leads/create',
      remoteAddress: freshIp(),
      headers: {
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(9 * 1024 * 1024),
        cookie: `XSRF-TOKEN=${XSRF}`,
        'x-xsrf-token': XSRF,
      },
      payload: '--x--',
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('The application is too large: at most 8 MB in all');
  });

  it('judges file types by their bytes, not their names', async () => {
    await refused({ picture: { bytes: HTML, name: 'me.png', type: 'image/png' } }, 415, {
      msg: 'Picture must be a JPEG, PNG or WebP image',
      param: 'picture',
    });
    await refused({ picture: { bytes: PDF, name: 'me.jpg', type: 'image/jpeg' } }, 415, {
      msg: 'Picture must be a JPEG, PNG or WebP image',
      param: 'picture',
    });
    await refused({ document: { bytes: HTML, name: 'proof.pdf', type: 'application/pdf' } }, 415, {
      msg: 'Document must be a PDF, JPEG or PNG file',
      param: 'document',
    });
    const png = await apply({
      picture: { bytes: JPEG, name: 'me.jpeg', type: 'image/jpeg' },
      document: { bytes: PNG, name: 'scan.pdf', type: 'application/pdf' },
    });
    expect(png.status, JSON.stringify(png.body)).toBe(200);
    const lead = (
      await call(ctx.app, 'GET', 'leads/fetch', { token: admin, query: { _id: png.body.result._id } })
    ).body.result.leads[0];
    expect(lead.document.mime).toBe('image/png');
    expect(lead.picture.mime).toBe('image/jpeg');
  });

  it('refuses a body that is not multipart', async () => {
    const res = await call(ctx.app, 'POST', 'leads/create', { body: { applicantInfo: {} } });
    expect(res.status).toBe(415);
    expect(res.body.message).toBe('The application must be sent as multipart/form-data');
  });

  it('limits each address to 10 applications an hour', async () => {
    const ip = '10.77.0.1';
    for (let i = 0; i < 10; i++) {
      // Refused attempts count too.
      const res = await apply({ ip, picture: i % 2 ? null : undefined });
      expect(res.status).not.toBe(429);
    }
    const leadsBefore = await leadCount();
    const limited = await apply({ ip });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(
      'Too many applications from this network. Please try again in an hour.',
    );
    expect(Number(limited.headers?.['retry-after'])).toBeGreaterThan(3500);
    expect(await leadCount()).toBe(leadsBefore);
    expect((await apply({ ip: '10.77.0.2' })).status).toBe(200);
  });
});

describe('review', () => {
  it('serves the list and the files only to signed-in staff', async () => {
    const id = (await apply()).body.result._id;
    const anon = await call(ctx.app, 'GET', 'leads/fetch');
    expect(anon.status).toBe(401);
    const tier = await call(ctx.app, 'GET', 'leads/fetch', { token: retailer });
    expect(tier.status).toBe(403);
    expect(tier.body.message).toBe('You do not have permission to do this');
    expect((await call(ctx.app, 'GET', 'leads/fetch', { token: employee })).status).toBe(200);

    const anonFile = await ctx.app.inject({ method: 'GET', url: `/api/v1/leads/${id}/picture` });
    expect(anonFile.statusCode).toBe(401);
    const tierFile = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/leads/${id}/document`,
      headers: { 'x-auth-token': `bearer ${retailer}` },
    });
    expect(tierFile.statusCode).toBe(403);
    const picture = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/leads/${id}/picture`,
      headers: { 'x-auth-token': `bearer ${admin}` },
    });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/png');
    expect(picture.headers['x-content-type-options']).toBe('nosniff');
    expect(picture.headers['content-length']).toBe(String(PNG.length));
    expect(picture.headers['cache-control']).toBe('no-store');
    expect(picture.rawPayload.equals(PNG)).toBe(true);
    const document = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/leads/${id}/document`,
      headers: { 'x-auth-token': `bearer ${employee}` },
    });
    expect(document.headers['content-type']).toBe('application/pdf');
    expect(document.rawPayload.equals(PDF)).toBe(true);
    // Stored files are never served by their names.
    const [{ name }] = (
      await ctx.database.pool.query<{ name: string }>(
        'select picture_file as name from leads where id = $1',
        [id],
      )
    ).rows;
    for (const url of [`/uploads/${name}`, `/api/v1/uploads/${name}`])
      expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(404);
  });

  it('filters by type and status', async () => {
    await apply({ leadType: 'DISTRIBUTOR' });
    const res = await call(ctx.app, 'GET', 'leads/fetch', {
      token: admin,
      query: { leadType: 'DISTRIBUTOR', status: 'NEW' },
    });
    expect(res.body.result.totalCounts).toBeGreaterThan(0);
    expect(
      res.body.result.leads.every(
        (l: { leadType: string; status: string }) => l.leadType === 'DISTRIBUTOR' && l.status === 'NEW',
      ),
    ).toBe(true);
    const bad = await call(ctx.app, 'GET', 'leads/fetch', { token: admin, query: { status: 'DONE' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toEqual({ msg: 'Status must be NEW, APPROVED or REJECTED', param: 'status' });
  });

  it('approves a distributor application once, creating the user with the initial password', async () => {
    const mobile = '9812345670';
    const id = (
      await apply({
        leadType: 'DISTRIBUTOR',
        parts: { businessInfo: JSON.stringify(sections({ businessInfo: { mobile } }).businessInfo) },
      })
    ).body.result._id;
    const masters = (await call(ctx.app, 'GET', 'account/fetch', { token: admin, query: { type: '2' } })).body
      .result.users;
    const masterDistributorId = masters[0]._id;

    const byEmployee = await call(ctx.app, 'POST', `leads/approve/${id}`, {
      token: employee,
      body: { masterDistributorId },
    });
    expect(byEmployee.status).toBe(403);
    expect(byEmployee.body.message).toBe('You do not have permission to do this');
    const missingParent = await call(ctx.app, 'POST', `leads/approve/${id}`, { token: admin, body: {} });
    expect(missingParent.status).toBe(400);
    expect(missingParent.body.errors[0]).toEqual({
      msg: 'This field is required',
      param: 'masterDistributorId',
    });

    const res = await call(ctx.app, 'POST', `leads/approve/${id}`, {
      token: admin,
      body: { masterDistributorId },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('Application approved');
    expect(res.body.result.user).toMatchObject({
      type: 3,
      name: 'Kiran Patil',
      mobile: { number: mobile },
      master_distributor: [{ _id: masterDistributorId }],
      // The applicant's PAN is copied, upper-cased (issue 43: TDS is withheld at the lower rate with one).
      panId: 'ABCDE1234F',
    });
    const session = await login(ctx.app, mobile, INITIAL_PASSWORD);
    expect(session.user.passwordUpdatedAt).toBeNull();

    const lead = (await call(ctx.app, 'GET', 'leads/fetch', { token: admin, query: { _id: id } })).body.result
      .leads[0];
    expect(lead).toMatchObject({
      status: 'APPROVED',
      userId: res.body.result.userId,
      decidedBy: expect.any(String),
      decidedAt: expect.any(String),
    });

    const twice = await call(ctx.app, 'POST', `leads/approve/${id}`, {
      token: admin,
      body: { masterDistributorId },
    });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('This application has already been decided');
    const rejectAfter = await call(ctx.app, 'POST', `leads/reject/${id}`, {
      token: admin,
      body: { reason: 'late' },
    });
    expect(rejectAfter.status).toBe(409);
  });

  it('leaves a retailer application NEW when approval fails part-way', async () => {
    const id = (
      await apply({
        parts: {
          businessInfo: JSON.stringify(sections({ businessInfo: { mobile: '9300000001' } }).businessInfo),
        },
      })
    ).body.result._id;
    const masters = (await call(ctx.app, 'GET', 'account/fetch', { token: admin, query: { type: '2' } })).body
      .result.users;
    const noDistributor = await call(ctx.app, 'POST', `leads/approve/${id}`, {
      token: admin,
      body: { masterDistributorId: masters[0]._id },
    });
    expect(noDistributor.status).toBe(400);
    expect(noDistributor.body.errors[0]).toEqual({ msg: 'This field is required', param: 'distributorId' });
    const distributors = (
      await call(ctx.app, 'GET', 'account/fetch', {
        token: admin,
        query: { type: '3', masterDistributorId: masters[0]._id },
      })
    ).body.result.users;
    // The applicant's mobile already belongs to a retailer: the user cannot be created, so nothing changes.
    const taken = await call(ctx.app, 'POST', `leads/approve/${id}`, {
      token: admin,
      body: { masterDistributorId: masters[0]._id, distributorId: distributors[0]._id },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('This mobile number is already registered');
    const lead = (await call(ctx.app, 'GET', 'leads/fetch', { token: admin, query: { _id: id } })).body.result
      .leads[0];
    expect(lead).toMatchObject({ status: 'NEW', userId: null, decidedBy: null });
  });

  it("refuses to approve an application whose mobile is another user's user name (issue 41)", async () => {
    // A user whose user name is a number: the applicant's mobile, which would become the new user's user name too.
    const mobile = '9812345681';
    const holder = await call(ctx.app, 'POST', 'account/create', {
      token: admin,
      body: {
        type: 2,
        name: 'numbered master',
        email: 'numbered@example.in',
        mobile: '9812345682',
        userName: mobile,
        districtId: place.districtId,
        tehsilId: place.tehsilId,
      },
    });
    expect(holder.status, JSON.stringify(holder.body)).toBe(200);
    const id = (
      await apply({
        leadType: 'DISTRIBUTOR',
        parts: { businessInfo: JSON.stringify(sections({ businessInfo: { mobile } }).businessInfo) },
      })
    ).body.result._id;
    const clash = await call(ctx.app, 'POST', `leads/approve/${id}`, {
      token: admin,
      body: { masterDistributorId: holder.body.result._id },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe("This mobile number is another user's user name");
    expect(clash.body.errors).toEqual([
      { msg: "This mobile number is another user's user name", param: 'mobile' },
    ]);
    const lead = (await call(ctx.app, 'GET', 'leads/fetch', { token: admin, query: { _id: id } })).body.result
      .leads[0];
    expect(lead).toMatchObject({ status: 'NEW', userId: null, decidedBy: null });
  });

  it('rejects with a reason, once', async () => {
    const id = (await apply()).body.result._id;
    const noReason = await call(ctx.app, 'POST', `leads/reject/${id}`, {
      token: employee,
      body: { reason: '  ' },
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors[0]).toEqual({
      msg: 'A reason is required to reject an application',
      param: 'reason',
    });
    const res = await call(ctx.app, 'POST', `leads/reject/${id}`, {
      token: employee,
      body: { reason: 'Documents unreadable' },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Application rejected');
    const lead = (await call(ctx.app, 'GET', 'leads/fetch', { token: admin, query: { _id: id } })).body.result
      .leads[0];
    expect(lead).toMatchObject({
      status: 'REJECTED',
      rejectReason: 'Documents unreadable',
      decidedBy: expect.any(String),
    });
    const twice = await call(ctx.app, 'POST', `leads/reject/${id}`, {
      token: employee,
      body: { reason: 'again' },
    });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('This application has already been decided');
    const unknown = await call(ctx.app, 'POST', 'leads/reject/00000000-0000-4000-8000-000000000000', {
      token: admin,
      body: { reason: 'x' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Application not found');
  });
});

/** Open file descriptors of this process that point into the uploads directory. */
const openUploads = () =>
  fs
    .readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => target.startsWith(uploads()));

/** What the server finishes after it answered (closing files), waited for as a user would. */
const AFTER_ANSWER = { timeout: 10_000, interval: 20 };

describe('broken uploads', () => {
  it('answers a multipart request without a boundary 400', async () => {
    const res = await postLead('whatever', 'multipart/form-data');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The upload is not valid multipart/form-data' });
  });

  it('answers an empty multipart body 400 as an upload that ended early', async () => {
    const res = await postLead('', 'multipart/form-data; boundary=x');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The upload ended before it was complete. Please send it again.' });
  });

  it('refuses more parts than an application has with 413, and keeps nothing', async () => {
    const leadsBefore = await leadCount();
    const { payload, contentType } = await multipartBody();
    // A whole application, then a third file part before the closing boundary.
    const boundary = contentType.split('boundary=')[1];
    const text = payload.toString('latin1');
    const end = text.lastIndexOf(`--${boundary}--`);
    const third = `--${boundary}\r\nContent-Disposition: form-data; name="picture"; filename="again.png"\r\nContent-Type: image/png\r\n\r\n${PNG.toString('latin1')}\r\n`;
    const res = await postLead(
      Buffer.from(text.slice(0, end) + third + text.slice(end), 'latin1'),
      contentType,
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'The application is too large: at most 8 MB in all' });
    expect(await leadCount()).toBe(leadsBefore);
    expect(tempFiles()).toEqual([]);
  });

  it('takes a part typed application/json as its text, and refuses one that is not JSON as a malformed upload', async () => {
    /** The body with its bankInfo part typed as JSON (a client may type it; the panel sends text). */
    const typed = async (app: Parameters<typeof multipartBody>[0] = {}) => {
      const { payload, contentType } = await multipartBody(app);
      const text = payload.toString('latin1');
      const header = 'name="bankInfo"';
      expect(text).toContain(header);
      return {
        payload: Buffer.from(text.replace(header, `${header}\r\nContent-Type: application/json`), 'latin1'),
        contentType,
      };
    };
    const good = await typed();
    const accepted = await postLead(good.payload, good.contentType);
    expect(accepted.statusCode, accepted.body).toBe(200);

    const leadsBefore = await leadCount();
    const bad = await typed({ parts: { bankInfo: '{"bankName": "SBI",' } });
    const refused = await postLead(bad.payload, bad.contentType);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: 'The upload is not valid multipart/form-data' });
    expect(await leadCount()).toBe(leadsBefore);
    expect(tempFiles()).toEqual([]);
  });

  it('refuses a body cut off inside a file, and leaves no file and no open handle', async () => {
    const leadsBefore = await leadCount();
    const filesBefore = await stored();
    const { payload, contentType } = await multipartBody();
    const res = await postLead(payload.subarray(0, payload.length - 60), contentType);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The upload ended before it was complete. Please send it again.' });
    expect(await leadCount()).toBe(leadsBefore);
    expect(await stored()).toEqual(filesBefore);
    expect(tempFiles()).toEqual([]);
    await vi.waitFor(() => expect(openUploads(), 'uploads left open').toEqual([]), AFTER_ANSWER);
  });

  it('refuses a whole body that lacks its closing boundary instead of keeping a truncated file', async () => {
    const leadsBefore = await leadCount();
    const { payload, contentType } = await multipartBody();
    const text = payload.toString('latin1');
    const cut = Buffer.from(text.slice(0, text.lastIndexOf('\r\n--')), 'latin1');
    const res = await postLead(cut, contentType);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The upload ended before it was complete. Please send it again.');
    expect(await leadCount()).toBe(leadsBefore);
  });

  it('answers an upload that stops arriving 408 within the idle timeout, and keeps nothing', async () => {
    const slow = await makeTestContext({ demo: false, config: { uploadIdleTimeoutMs: 400 } });
    try {
      await slow.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = slow.app.server.address() as net.AddressInfo;
      const { payload, contentType } = await multipartBody();
      const started = Date.now();
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.write(
            `POST /api/v1/leads/create HTTP/1.1\r\nHost: x\r\ncontent-type: ${contentType}\r\n` +
              `content-length: ${payload.length}\r\ncookie: XSRF-TOKEN=${XSRF}\r\nx-xsrf-token: ${XSRF}\r\n\r\n`,
          );
          // Half the body, then nothing: a client that stalled mid-upload.
          socket.write(payload.subarray(0, Math.floor(payload.length / 2)));
        });
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk;
        });
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('{"message":"The upload stopped arriving. Please send it again."}');
      expect(Date.now() - started).toBeLessThan(10_000);
      const dir = path.join(slow.config.dataDir, 'uploads');
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it('cleans up after a client that disconnects mid-upload', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as net.AddressInfo;
    const filesBefore = await stored();
    const { payload, contentType } = await multipartBody();
    await new Promise<void>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(
          `POST /api/v1/leads/create HTTP/1.1\r\nHost: x\r\ncontent-type: ${contentType}\r\n` +
            `content-length: ${payload.length}\r\ncookie: XSRF-TOKEN=${XSRF}\r\nx-xsrf-token: ${XSRF}\r\n\r\n`,
        );
        socket.write(payload.subarray(0, payload.length - 100), () => setTimeout(() => socket.destroy(), 50));
      });
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
    await vi.waitFor(() => {
      expect(tempFiles(), 'temporary files left').toEqual([]);
      expect(openUploads(), 'uploads left open').toEqual([]);
    }, AFTER_ANSWER);
    expect(await stored()).toEqual(filesBefore);
  });
});

describe('lead files with names in any script', () => {
  it.each([
    ['Hindi', 'पैन कार्ड.pdf'],
    ['Chinese', '身份证明.pdf'],
    ['emoji', 'pan 📄.pdf'],
  ])('downloads a document named in %s (RFC 6266 filename*)', async (_script, name) => {
    const created = await apply({ document: { bytes: PDF, name, type: 'application/pdf' } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/leads/${created.body.result._id}/document`,
      headers: { 'x-auth-token': `bearer ${admin}` },
    });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toMatch(/^inline; filename="[\x20-\x7e]*"; filename\*=UTF-8''/);
    const encoded = /filename\*=UTF-8''(.+)$/.exec(disposition)![1];
    expect(decodeURIComponent(encoded)).toBe(name);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
