import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { formatDate } from '../../src/shared/format';
import { LEAD_MSG } from '../../src/shared/schemas/leads';
import { Menu } from '../../src/web/layout/Menu';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { LeadList } from '../../src/web/resources/leads/LeadList';
import { jsonResponse, labelledField, renderInAdmin, wireUser } from './helpers';

const MD_ID = '55555555-5555-4555-8555-555555555555';
const DIST_ID = '66666666-6666-4666-8666-666666666666';
const LEAD_ID = '44444444-4444-4444-8444-444444444444';
const STATE_ID = '11111111-1111-4111-8111-111111111111';
const DISTRICT_ID = '22222222-2222-4222-8222-222222222222';
const TEHSIL_ID = '33333333-3333-4333-8333-333333333333';

const ROW = {
  _id: LEAD_ID,
  leadType: 'RETAILER',
  status: 'NEW',
  applicantName: 'kiran patil',
  establishmentName: 'kiran mobile point',
  mobile: '9876543210',
  state: [{ _id: STATE_ID, name: 'maharashtra' }],
  district: [{ _id: DISTRICT_ID, name: 'pune' }],
  tehsil: [{ _id: TEHSIL_ID, name: 'haveli' }],
  userId: null,
  decidedBy: null,
  decidedAt: null,
  rejectReason: null,
  createdAt: '2026-11-21T10:00:00.000Z',
};

const FULL = {
  ...ROW,
  applicantInfo: { name: 'Kiran Patil', education: 'B.Com', gender: 'Female' },
  businessInfo: {
    establishmentName: 'Kiran Mobile Point',
    outletAddress: 'Shop 4, Market Road',
    businessLandmark: 'Near bus stand',
    pincode: '411001',
    stateId: STATE_ID,
    districtId: DISTRICT_ID,
    tehsilId: TEHSIL_ID,
    mobile: '9876543210',
    telephone: '020-2345678',
    email: 'kiran@example.in',
    ownershipType: 'Rented',
    yearsInLocation: '5',
  },
  permanentAddress: {
    residentialAddress: '12 Lane 3',
    landmark: 'Temple',
    permanentAddressPincode: '411002',
    permanentStateId: STATE_ID,
    permanentDistrictId: DISTRICT_ID,
    permanentTehsilId: TEHSIL_ID,
    permanentMobile: '9876543211',
    permanentTelephone: '020-2345679',
    permanentEmail: 'kiran.home@example.in',
  },
  otherBusinessInfo: {
    outletDescription: 'Mobile recharge',
    similarServiceDetails: 'None',
    panNumber: 'ABCDE1234F',
    aadharNumber: 'XXXXXXXX1234',
  },
  bankInfo: { bankName: 'State Bank', accountNumber: '123456789012', ifscCode: 'SBIN0001234' },
  identityProof: { type: 'PAN', documentNumber: 'ABCDE1234F' },
  picture: { mime: 'image/png', size: 68, url: `leads/${LEAD_ID}/picture` },
  document: { mime: 'application/pdf', size: 1200, name: 'pan.pdf', url: `leads/${LEAD_ID}/document` },
};

const MD = wireUser({ _id: MD_ID, name: 'mahesh master', type: UserType.MASTER_DISTRIBUTOR });
const DIST = wireUser({
  _id: DIST_ID,
  name: 'dinesh distributor',
  type: UserType.DISTRIBUTOR,
  distributor: { isMaster: false, masterDistributorId: MD_ID },
} as never);

const login = (type: UserType) => {
  const user = wireUser({ type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

/** The server as the panel sees it: leads, their files (token only), locations, users and the decisions. */
const stubServer = ({ decided = false, filesGone = false } = {}) => {
  let status = 'NEW';
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://x');
    const path = url.pathname.replace('/api/v1/', '');
    const q = url.searchParams;
    const token = new Headers(init.headers).get('X-auth-token');
    if (path === 'leads/fetch') {
      const lead = q.get('_id') ? { ...FULL, status } : { ...ROW, status };
      return jsonResponse(200, { result: { leads: [lead], totalCounts: 1 } });
    }
    if (path === `leads/${LEAD_ID}/picture` || path === `leads/${LEAD_ID}/document`) {
      if (filesGone) return jsonResponse(404, { message: LEAD_MSG.leadNotFound });
      if (token !== 'bearer tok-1') return jsonResponse(401, { message: 'Authentication required' });
      const type = path.endsWith('picture') ? 'image/png' : 'application/pdf';
      return new Response('bytes', {
        status: 200,
        headers: { 'Content-Type': type },
      });
    }
    if (path === 'state/fetch')
      return jsonResponse(200, { result: { state: [{ _id: STATE_ID, name: 'maharashtra' }] } });
    if (path === 'districts/fetch')
      return jsonResponse(200, { result: { districts: [{ _id: DISTRICT_ID, name: 'pune' }] } });
    if (path === 'tehsil/fetch')
      return jsonResponse(200, { result: { tehsil: [{ _id: TEHSIL_ID, name: 'haveli' }] } });
    if (path === 'account/fetch') {
      const users = q.get('type') === '2' ? [MD] : q.get('masterDistributorId') === MD_ID ? [DIST] : [];
      return jsonResponse(200, { result: { users, totalCounts: users.length } });
    }
    if (path === `leads/approve/${LEAD_ID}`) {
      status = 'APPROVED';
      return jsonResponse(200, { result: { _id: LEAD_ID, status }, message: LEAD_MSG.approved });
    }
    if (path === `leads/reject/${LEAD_ID}`) {
      if (decided) return jsonResponse(409, { message: LEAD_MSG.alreadyDecided });
      status = 'REJECTED';
      return jsonResponse(200, { result: { _id: LEAD_ID, status }, message: LEAD_MSG.rejected });
    }
    return jsonResponse(404, { message: `not stubbed: ${path}` });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
};

const renderList = () =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/lead/list" element={<LeadList />} />
      </Routes>,
      { path: '/lead/list', dataProvider: createDataProvider() },
    ),
  );

const calls = (fetch: ReturnType<typeof stubServer>, part: string) =>
  fetch.mock.calls.filter(([url]) => String(url).includes(part));

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:lead-file');
  URL.revokeObjectURL = vi.fn();
});

describe('Leads review', () => {
  it('lists type, applicant, establishment, mobile, district, status and created at, with type and status filters', async () => {
    login(UserType.ADMIN);
    const fetch = stubServer();
    renderList();
    expect(await screen.findByText('Kiran Patil')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Leads' })).toBeInTheDocument();
    const row = screen.getByText('Kiran Patil').closest('tr')!;
    for (const text of [
      'RETAILER',
      'Kiran Mobile Point',
      '9876543210',
      'Pune',
      'NEW',
      formatDate('2026-11-21T10:00:00.000Z'),
    ])
      expect(within(row).getByText(text)).toBeInTheDocument();
    expect(calls(fetch, 'leads/fetch')[0][0]).toBe('/api/v1/leads/fetch?page=1&limit=10');

    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'APPROVED' }));
    await waitFor(() => expect(calls(fetch, 'status=APPROVED').length).toBeGreaterThan(0));
    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'DISTRIBUTOR' }));
    await waitFor(() => expect(calls(fetch, 'leadType=DISTRIBUTOR').length).toBeGreaterThan(0));
  });

  it('opens the whole application with the picture and the document fetched with the token', async () => {
    login(UserType.ADMIN);
    const fetch = stubServer();
    const user = userEvent.setup();
    renderList();
    await user.click(await screen.findByRole('button', { name: 'View the application of Kiran Patil' }));
    const dialog = await screen.findByRole('dialog', { name: 'Application of Kiran Patil' });
    expect(await within(dialog).findByText('Shop 4, Market Road')).toBeInTheDocument();
    expect(within(dialog).getByText('XXXXXXXX1234')).toBeInTheDocument();
    expect(within(dialog).getByText('SBIN0001234')).toBeInTheDocument();
    expect(await within(dialog).findAllByText('Haveli')).toHaveLength(2);
    expect(await within(dialog).findByRole('img', { name: 'Picture of Kiran Patil' })).toHaveAttribute(
      'src',
      'blob:lead-file',
    );
    expect(await within(dialog).findByRole('link', { name: 'Open pan.pdf' })).toHaveAttribute(
      'href',
      'blob:lead-file',
    );
    const [, init] = calls(fetch, `leads/${LEAD_ID}/picture`)[0];
    expect(new Headers(init?.headers).get('X-auth-token')).toBe('bearer tok-1');
    expect(within(dialog).getByRole('button', { name: 'Approve' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Reject' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:lead-file'));
  });

  it('approves a retailer lead under a master distributor and one of its distributors', async () => {
    login(UserType.ADMIN);
    const fetch = stubServer();
    const user = userEvent.setup();
    renderList();
    await user.click(await screen.findByRole('button', { name: 'View the application of Kiran Patil' }));
    const detail = await screen.findByRole('dialog', { name: 'Application of Kiran Patil' });
    await user.click(within(detail).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve Application' });
    // The first field has the focus, so a keyboard user starts typing at once.
    expect(within(dialog).getByRole('combobox', { name: 'Master Distributor' })).toHaveFocus();
    expect(within(dialog).getByRole('combobox', { name: 'Distributor' })).toBeDisabled();

    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Invalid data!')).toBeInTheDocument();
    expect(calls(fetch, 'leads/approve')).toHaveLength(0);

    // Typing opens the suggestions (the invalid submit left the focus in this field).
    await user.type(within(dialog).getByRole('combobox', { name: 'Master Distributor' }), 'mah');
    await user.click(await screen.findByRole('option', { name: 'Mahesh Master' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: 'Distributor' })).not.toBeDisabled(),
    );
    await user.click(within(dialog).getByRole('combobox', { name: 'Distributor' }));
    await user.click(await screen.findByRole('option', { name: 'Dinesh Distributor' }));
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));

    await waitFor(() => expect(calls(fetch, 'leads/approve')).toHaveLength(1));
    const [url, init] = calls(fetch, 'leads/approve')[0];
    expect(url).toBe(`/api/v1/leads/approve/${LEAD_ID}`);
    expect(JSON.parse(String(init?.body))).toEqual({ masterDistributorId: MD_ID, distributorId: DIST_ID });
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Approve Application' })).not.toBeInTheDocument(),
    );
    // The views refetch: the lead is APPROVED and can no longer be decided.
    await waitFor(() =>
      expect(within(detail).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument(),
    );
    expect(within(detail).getAllByText('APPROVED').length).toBeGreaterThan(0);
    // The success toast waits for the 'Invalid data!' one to go (react-admin shows one at a time).
    expect(await screen.findByText(LEAD_MSG.approved)).toBeInTheDocument();
  });

  it('rejects with a reason; the reason is required', async () => {
    login(UserType.ADMIN);
    const fetch = stubServer();
    const user = userEvent.setup();
    renderList();
    await user.click(await screen.findByRole('button', { name: 'View the application of Kiran Patil' }));
    const detail = await screen.findByRole('dialog', { name: 'Application of Kiran Patil' });
    await user.click(within(detail).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject Application' });
    expect(labelledField(dialog, 'Reason')).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText(LEAD_MSG.reasonRequired)).toBeInTheDocument();
    await user.type(labelledField(dialog, 'Reason'), 'Incomplete documents');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText(LEAD_MSG.rejected)).toBeInTheDocument();
    expect(JSON.parse(String(calls(fetch, 'leads/reject')[0][1]?.body))).toEqual({
      reason: 'Incomplete documents',
    });
  });

  it("a refused decision shows the server's message and keeps the dialog open", async () => {
    login(UserType.ADMIN);
    const fetch = stubServer({ decided: true });
    const user = userEvent.setup();
    renderList();
    await user.click(await screen.findByRole('button', { name: 'View the application of Kiran Patil' }));
    const detail = await screen.findByRole('dialog', { name: 'Application of Kiran Patil' });
    await user.click(within(detail).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject Application' });
    await user.type(labelledField(dialog, 'Reason'), 'Duplicate');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText(`Error: ${LEAD_MSG.alreadyDecided}`)).toBeInTheDocument();
    expect(calls(fetch, 'leads/reject')).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'Reject Application' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Reject' })).toBeEnabled();
    expect(labelledField(dialog, 'Reason')).toHaveValue('Duplicate');
  });

  it('says a file could not be loaded when the server refuses it', async () => {
    login(UserType.ADMIN);
    stubServer({ filesGone: true });
    const user = userEvent.setup();
    renderList();
    await user.click(await screen.findByRole('button', { name: 'View the application of Kiran Patil' }));
    const dialog = await screen.findByRole('dialog', { name: 'Application of Kiran Patil' });
    await waitFor(() =>
      expect(
        within(dialog)
          .getAllByRole('alert')
          .map((alert) => alert.textContent),
      ).toEqual(['Could not load the file.', 'Could not load the file.']),
    );
    expect(within(dialog).queryByRole('img', { name: 'Picture of Kiran Patil' })).not.toBeInTheDocument();
    expect(URL.createObjectURL).not.toHaveBeenCalled();
  });

  it('an employee may reject but not approve (only ADMIN creates retailers)', async () => {
    login(UserType.EMPLOYEE);
    stubServer();
    const user = userEvent.setup();
    renderList();
    await user.click(await screen.findByRole('button', { name: 'View the application of Kiran Patil' }));
    const detail = await screen.findByRole('dialog', { name: 'Application of Kiran Patil' });
    expect(await within(detail).findByRole('button', { name: 'Reject' })).toBeInTheDocument();
    expect(within(detail).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
  });

  it("the menu shows 'Leads' to staff only", async () => {
    login(UserType.EMPLOYEE);
    const { unmount } = render(
      renderInAdmin(
        <Routes>
          <Route path="/home" element={<Menu />} />
        </Routes>,
        { path: '/home' },
      ),
    );
    expect(await screen.findByRole('menuitem', { name: 'Leads' })).toHaveAttribute('href', '/lead/list');
    unmount();
    login(UserType.RETAILER);
    render(
      renderInAdmin(
        <Routes>
          <Route path="/home" element={<Menu />} />
        </Routes>,
        { path: '/home' },
      ),
    );
    expect(await screen.findByRole('menuitem', { name: 'Logout' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Leads' })).not.toBeInTheDocument();
  });
});
