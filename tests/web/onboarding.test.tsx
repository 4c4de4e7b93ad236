import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { verhoeffDigit } from '../../src/shared/identity';
import { MSG } from '../../src/shared/messages';
import { LEAD_MSG } from '../../src/shared/schemas/leads';
import { Onboarding } from '../../src/web/pages/onboarding/Onboarding';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { jsonResponse, labelledField, renderInAdmin } from './helpers';

const BASE = '4912345678';
const AADHAR = `${BASE}0${verhoeffDigit(`${BASE}0`)}`;

const STATE_ID = '11111111-1111-4111-8111-111111111111';
const DISTRICT_ID = '22222222-2222-4222-8222-222222222222';
const TEHSIL_ID = '33333333-3333-4333-8333-333333333333';

const STATES = [{ _id: STATE_ID, name: 'maharashtra', createdAt: '2026-01-01T00:00:00.000Z' }];
const DISTRICTS = [{ _id: DISTRICT_ID, name: 'pune', stateId: { _id: STATE_ID, name: 'maharashtra' } }];
const TEHSILS = [
  {
    _id: TEHSIL_ID,
    name: 'haveli',
    districtId: { _id: DISTRICT_ID, name: 'pune' },
    stateId: { _id: STATE_ID, name: 'maharashtra' },
  },
];

type Answer = (url: string, init: RequestInit) => Response | undefined;

/** A stubbed fetch: the public location lookups, and `leads/create` answered by `onCreate`. */
const stubFetch = (
  onCreate: Answer = () => jsonResponse(200, { result: { _id: 'l-1' }, message: LEAD_MSG.thankYou }),
) => {
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const byId = new URL(url, 'http://x').searchParams.get('_id');
    const pick = <T extends { _id: string }>(rows: T[]) => (byId ? rows.filter((r) => r._id === byId) : rows);
    if (url.includes('/state/fetch'))
      return jsonResponse(200, { result: { state: pick(STATES), totalCounts: 1 } });
    if (url.includes('/districts/fetch'))
      return jsonResponse(200, { result: { districts: pick(DISTRICTS), totalCounts: 1 } });
    if (url.includes('/tehsil/fetch'))
      return jsonResponse(200, { result: { tehsil: pick(TEHSILS), totalCounts: 1 } });
    if (url.includes('/leads/create')) return onCreate(url, init) ?? jsonResponse(500, {});
    return jsonResponse(404, { message: 'not stubbed' });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
};

const renderForm = () =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/onboarding/retailer" element={<Onboarding leadType="RETAILER" />} />
      </Routes>,
      { path: '/onboarding/retailer', dataProvider: createDataProvider() },
    ),
  );

const region = (name: string) => screen.getByRole('region', { name });
const applicant = () => region('Applicant Information');
const business = () => region('Shop / Business Information');
const permanent = () => region('Permanent Address');

/** Types a value the fast way (change + blur), which touches the field as a user's Tab would. */
const fill = (scope: HTMLElement, label: string, value: string) => {
  const input = labelledField(scope, label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};

const choose = async (
  user: ReturnType<typeof userEvent.setup>,
  scope: HTMLElement,
  label: string,
  option: string,
) => {
  await waitFor(() => expect(within(scope).getByRole('combobox', { name: label })).not.toBeDisabled());
  await user.click(within(scope).getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
  await waitFor(() => expect(within(scope).getByRole('combobox', { name: label })).toHaveValue(option));
};

const fillBusiness = async (user: ReturnType<typeof userEvent.setup>) => {
  const b = business();
  fill(b, 'Establishment Name', 'Kiran Mobile Point');
  fill(b, 'Outlet Address', 'Shop 4, Market Road');
  fill(b, 'Landmark', 'Near bus stand');
  fill(b, 'Pincode', '411001');
  await choose(user, b, 'State', 'Maharashtra');
  await choose(user, b, 'District', 'Pune');
  await choose(user, b, 'Tehsil', 'Haveli');
  fill(b, 'Mobile', '9876543210');
  fill(b, 'Telephone', '020-2345678');
  fill(b, 'Email', 'kiran@example.in');
  fill(b, 'Years in Location', '5');
  await user.click(within(b).getByLabelText('Rented'));
};

const fillRest = async (user: ReturnType<typeof userEvent.setup>) => {
  const a = applicant();
  fill(a, 'Applicant Name', 'Kiran Patil');
  fill(a, 'Education', 'B.Com');
  await user.click(within(a).getByLabelText('Female'));
  const o = region('Other Business Information');
  fill(o, 'Outlet Description', 'Mobile recharge');
  fill(o, 'Similar Arrangement Details', 'None');
  fill(o, 'PAN Number', 'abcde1234f');
  fill(o, 'Aadhar Number', AADHAR);
  const bank = region('Bank Information');
  fill(bank, 'Bank Name', 'State Bank');
  fill(bank, 'Account Number', '123456789012');
  fill(bank, 'IFSC Code', 'sbin0001234');
  const identity = region('Identity Proof');
  await user.click(within(identity).getByRole('combobox', { name: 'Document Type' }));
  await user.click(await screen.findByRole('option', { name: 'PAN' }));
  fill(identity, 'Document Number', 'ABCDE1234F');
};

const PNG = () =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])], 'me.png', { type: 'image/png' });
const PDF = () => new File(['%PDF-1.4\n%%EOF\n'], 'pan.pdf', { type: 'application/pdf' });

const fileInput = (name: 'Applicant Picture' | 'Identity Document') =>
  within(region(name === 'Applicant Picture' ? 'Applicant Information' : 'Identity Proof')).getByLabelText(
    `${name} file`,
  ) as HTMLInputElement;

beforeEach(() => {
  // jsdom has no object URLs; the picture preview needs one.
  URL.createObjectURL = vi.fn(() => 'blob:preview');
  URL.revokeObjectURL = vi.fn();
});

describe('Onboarding form', () => {
  it('shows every section, gender Male by default, the declaration and a link back to Welcome', async () => {
    stubFetch();
    renderForm();
    expect(await screen.findByRole('heading', { level: 1, name: 'Retailer Onboarding' })).toBeInTheDocument();
    for (const name of [
      'Applicant Information',
      'Shop / Business Information',
      'Permanent Address',
      'Other Business Information',
      'Bank Information',
      'Identity Proof',
      'Declaration and Notes',
    ])
      expect(region(name)).toBeInTheDocument();
    expect(within(applicant()).getByLabelText('Male')).toBeChecked();
    expect(within(business()).getByRole('combobox', { name: 'District' })).toBeDisabled();
    expect(within(business()).getByRole('combobox', { name: 'Tehsil' })).toBeDisabled();
    expect(screen.getAllByRole('link', { name: 'Back to Welcome' })[0]).toHaveAttribute('href', '/welcome');
    expect(screen.getByRole('button', { name: 'Submit' })).toBeInTheDocument();
  });

  it("refuses 'same as above' while the business section is invalid, and untick it", async () => {
    stubFetch();
    const user = userEvent.setup();
    renderForm();
    const same = await screen.findByRole('checkbox', { name: 'Same as above' });
    await user.click(same);
    expect(await screen.findByText(LEAD_MSG.sameAsAboveRefused)).toBeInTheDocument();
    expect(same).not.toBeChecked();
    // The business fields now say what is missing.
    expect(within(business()).getAllByText(MSG.required).length).toBeGreaterThan(5);
    expect(labelledField(permanent(), 'Residential Address')).toHaveValue('');
  });

  it("copies the business address into the permanent one when 'same as above' is ticked", async () => {
    stubFetch();
    const user = userEvent.setup();
    renderForm();
    await screen.findByRole('heading', { level: 1 });
    await fillBusiness(user);
    const same = screen.getByRole('checkbox', { name: 'Same as above' });
    await user.click(same);
    expect(same).toBeChecked();
    const p = permanent();
    expect(labelledField(p, 'Residential Address')).toHaveValue('Shop 4, Market Road');
    expect(labelledField(p, 'Landmark')).toHaveValue('Near bus stand');
    expect(labelledField(p, 'Pincode')).toHaveValue('411001');
    expect(labelledField(p, 'Mobile')).toHaveValue('9876543210');
    expect(labelledField(p, 'Telephone')).toHaveValue('020-2345678');
    expect(labelledField(p, 'Email')).toHaveValue('kiran@example.in');
    await waitFor(() =>
      expect(within(p).getByRole('combobox', { name: 'State' })).toHaveValue('Maharashtra'),
    );
    await waitFor(() => expect(within(p).getByRole('combobox', { name: 'District' })).toHaveValue('Pune'));
    await waitFor(() => expect(within(p).getByRole('combobox', { name: 'Tehsil' })).toHaveValue('Haveli'));
    expect(screen.queryByText(LEAD_MSG.sameAsAboveRefused)).not.toBeInTheDocument();
  });

  it('shows the shared field messages once a field is touched: pincode, IFSC, Aadhar, PAN, mobile, email', async () => {
    stubFetch();
    const user = userEvent.setup();
    renderForm();
    await screen.findByRole('heading', { level: 1 });
    const pincode = labelledField(business(), 'Pincode');
    await user.type(pincode, '4110');
    expect(screen.queryByText(LEAD_MSG.invalidPincode)).not.toBeInTheDocument();
    await user.tab();
    expect(await within(business()).findByText(LEAD_MSG.invalidPincode)).toBeInTheDocument();

    const bank = region('Bank Information');
    fill(bank, 'IFSC Code', 'SBIN1234567');
    expect(await within(bank).findByText(LEAD_MSG.invalidIfsc)).toBeInTheDocument();
    fill(bank, 'IFSC Code', 'sbin0001234');
    await waitFor(() => expect(within(bank).queryByText(LEAD_MSG.invalidIfsc)).not.toBeInTheDocument());

    const other = region('Other Business Information');
    fill(other, 'Aadhar Number', '12345');
    expect(await within(other).findByText(MSG.aadharLength)).toBeInTheDocument();
    // 12 digits with a wrong Verhoeff check digit.
    fill(other, 'Aadhar Number', `${AADHAR.slice(0, 11)}${(Number(AADHAR[11]) + 1) % 10}`);
    expect(await within(other).findByText(LEAD_MSG.invalidAadhar)).toBeInTheDocument();
    fill(other, 'Aadhar Number', AADHAR);
    await waitFor(() => expect(within(other).queryByText(LEAD_MSG.invalidAadhar)).not.toBeInTheDocument());
    fill(other, 'PAN Number', 'ABCD1234F');
    expect(await within(other).findByText(MSG.invalidValue)).toBeInTheDocument();

    fill(business(), 'Mobile', '12345');
    expect(await within(business()).findByText(MSG.invalidMobile)).toBeInTheDocument();
    fill(business(), 'Email', 'not-an-email');
    expect(await within(business()).findByText(MSG.invalidEmail)).toBeInTheDocument();
  });

  it("an invalid submit toasts 'All fields are required to proceed for verification' and sends nothing", async () => {
    const fetch = stubFetch();
    const user = userEvent.setup();
    renderForm();
    await user.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(LEAD_MSG.allRequired)).toBeInTheDocument();
    expect(within(applicant()).getAllByText(MSG.required).length).toBeGreaterThan(0);
    // The dropzones say what is missing too.
    expect(within(applicant()).getByText(LEAD_MSG.photoRequired)).toBeInTheDocument();
    expect(within(region('Identity Proof')).getByText(LEAD_MSG.documentRequired)).toBeInTheDocument();
    expect(fetch.mock.calls.some(([url]) => String(url).includes('leads/create'))).toBe(false);
  });

  it('with every field valid, asks for the document, then for the photo, then sends the multipart application', async () => {
    let sent: FormData | undefined;
    const fetch = stubFetch((_, init) => {
      sent = init.body as FormData;
      return jsonResponse(200, { result: { _id: 'l-1' }, message: LEAD_MSG.thankYou });
    });
    const user = userEvent.setup();
    renderForm();
    await screen.findByRole('heading', { level: 1 });
    await fillBusiness(user);
    await user.click(screen.getByRole('checkbox', { name: 'Same as above' }));
    fill(permanent(), 'Mobile', '9876543211');
    await fillRest(user);

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findAllByText(LEAD_MSG.documentRequired)).not.toHaveLength(0);
    expect(screen.queryByText(LEAD_MSG.allRequired)).not.toBeInTheDocument();

    await user.upload(fileInput('Identity Document'), PDF());
    expect(await screen.findByText('pan.pdf')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findAllByText(LEAD_MSG.photoRequired)).not.toHaveLength(0);
    expect(sent).toBeUndefined();

    await user.upload(fileInput('Applicant Picture'), PNG());
    expect(await screen.findByRole('img', { name: 'Preview of the Applicant Picture' })).toBeInTheDocument();
    expect(screen.getByText('me.png')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(sent).toBeDefined());
    const [url, init] = fetch.mock.calls.find(([u]) => String(u).includes('leads/create'))!;
    expect(url).toBe('/api/v1/leads/create');
    expect(init?.method).toBe('POST');
    // The browser sets the multipart content type (with its boundary) itself.
    expect(new Headers(init?.headers).get('Content-Type')).toBeNull();
    const form = sent!;
    expect([...form.keys()]).toEqual([
      'applicantInfo',
      'businessInfo',
      'permanentAddress',
      'otherBusinessInfo',
      'bankInfo',
      'identityProof',
      'leadType',
      'picture',
      'document',
    ]);
    const part = (name: string) => JSON.parse(String(form.get(name)));
    expect(part('applicantInfo')).toEqual({ name: 'Kiran Patil', education: 'B.Com', gender: 'Female' });
    expect(part('businessInfo')).toEqual({
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
    });
    expect(part('permanentAddress')).toEqual({
      residentialAddress: 'Shop 4, Market Road',
      landmark: 'Near bus stand',
      permanentAddressPincode: '411001',
      permanentStateId: STATE_ID,
      permanentDistrictId: DISTRICT_ID,
      permanentTehsilId: TEHSIL_ID,
      permanentMobile: '9876543211',
      permanentTelephone: '020-2345678',
      permanentEmail: 'kiran@example.in',
    });
    expect(part('otherBusinessInfo')).toEqual({
      outletDescription: 'Mobile recharge',
      similarServiceDetails: 'None',
      panNumber: 'ABCDE1234F',
      aadharNumber: AADHAR,
    });
    expect(part('bankInfo')).toEqual({
      bankName: 'State Bank',
      accountNumber: '123456789012',
      ifscCode: 'SBIN0001234',
    });
    expect(part('identityProof')).toEqual({ type: 'PAN', documentNumber: 'ABCDE1234F' });
    expect(form.get('leadType')).toBe('RETAILER');
    expect((form.get('picture') as File).name).toBe('me.png');
    expect((form.get('document') as File).name).toBe('pan.pdf');

    // The thank-you text, and a fresh form.
    await waitFor(() => expect(screen.getAllByText(LEAD_MSG.thankYou).length).toBeGreaterThan(0));
    await waitFor(() => expect(labelledField(applicant(), 'Applicant Name')).toHaveValue(''));
    expect(within(applicant()).getByLabelText('Male')).toBeChecked();
    expect(screen.queryByText('me.png')).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Same as above' })).not.toBeChecked();
  });

  it('refuses a picture of the wrong type or too large, with the shared messages', async () => {
    stubFetch();
    const user = userEvent.setup({ applyAccept: false });
    renderForm();
    await screen.findByRole('heading', { level: 1 });
    await user.upload(fileInput('Applicant Picture'), PDF());
    expect(await within(applicant()).findByText(LEAD_MSG.fileType('picture'))).toBeInTheDocument();
    const big = new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    await user.upload(fileInput('Applicant Picture'), big);
    expect(await within(applicant()).findByText(LEAD_MSG.fileTooLarge('picture'))).toBeInTheDocument();
    expect(within(applicant()).queryByText('big.png')).not.toBeInTheDocument();

    await user.upload(fileInput('Applicant Picture'), PNG());
    expect(await within(applicant()).findByText('me.png')).toBeInTheDocument();
    expect(within(applicant()).queryByText(LEAD_MSG.fileTooLarge('picture'))).not.toBeInTheDocument();
    await user.click(within(applicant()).getByRole('button', { name: 'Remove the Applicant Picture' }));
    expect(within(applicant()).queryByText('me.png')).not.toBeInTheDocument();
  });

  it("shows the server's field refusal on the matching field", async () => {
    stubFetch(() =>
      jsonResponse(400, {
        message: MSG.validationFailed,
        errors: [
          { msg: 'Selected tehsil does not belong to the selected district', param: 'businessInfo.tehsilId' },
        ],
      }),
    );
    const user = userEvent.setup();
    renderForm();
    await screen.findByRole('heading', { level: 1 });
    await fillBusiness(user);
    await user.click(screen.getByRole('checkbox', { name: 'Same as above' }));
    await fillRest(user);
    await user.upload(fileInput('Identity Document'), PDF());
    await user.upload(fileInput('Applicant Picture'), PNG());
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    // The normalised toast, and the message under the tehsil of the business section.
    expect(
      await screen.findByText('Error: Selected tehsil does not belong to the selected district'),
    ).toBeInTheDocument();
    expect(
      await within(business()).findByText('Selected tehsil does not belong to the selected district'),
    ).toBeInTheDocument();
    expect(screen.queryByText(LEAD_MSG.thankYou)).not.toBeInTheDocument();
  });
});
