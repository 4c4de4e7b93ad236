import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UserType } from '../../src/shared/enums';
import { MSG } from '../../src/shared/messages';
import { TDS_MSG, type TdsQuartersResult } from '../../src/shared/schemas/tds';
import { App } from '../../src/web/App';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { bodyRows, jsonResponse, savedFiles, wireUser } from './helpers';
import { answer, stubServer } from './salesServer';

// Issue 51, finding 8: a master distributor, distributor or retailer read its TDS in its statement, but no screen
// offered its certificate (Form 16A), although the role table allows it. My TDS lists its quarters, each with its
// certificate's PDF.

const RETAILER = '00000000-0000-4000-8000-000000000007';

const login = (type: UserType) => {
  const user = wireUser({ _id: RETAILER, type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const QUARTERS: TdsQuartersResult = {
  user: { _id: RETAILER, name: 'rekha retail', panId: 'ABCDE1234F' },
  quarters: [
    { fy: '2026-27', quarter: 'Q3', from: '2026-10-01', to: '2026-12-31', credited: 25_000, tds: 500 },
    { fy: '2026-27', quarter: 'Q1', from: '2026-04-01', to: '2026-06-30', credited: 1_200.5, tds: 0 },
  ],
};

/** tds/quarters as given, and the certificate's PDF. */
const tdsServer = (quarters: () => Response) =>
  stubServer(
    answer('GET', 'tds/quarters', quarters),
    answer(
      'GET',
      'tds/certificate',
      () =>
        new Response(new Uint8Array([37, 80, 68, 70]), { headers: { 'Content-Type': 'application/pdf' } }),
    ),
  );

const visit = (path: string) => {
  window.history.replaceState({}, '', path);
  return render(<App />);
};

describe('My TDS', () => {
  let saved: string[];
  beforeEach(() => {
    saved = savedFiles();
  });

  it('is in a retailer’s menu and lists its quarters, newest first, with credited and tax', async () => {
    login(UserType.RETAILER);
    const api = tdsServer(() => jsonResponse(200, { result: QUARTERS }));
    visit('/home');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('menuitem', { name: 'My TDS' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'My TDS' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/my-tds');
    const table = await screen.findByRole('table', { name: 'Quarters' });
    const rows = bodyRows(table);
    expect(rows).toEqual([
      ['2026-27Q3 (October to December)', '₹25,000.00', '₹500.00', ''],
      ['2026-27Q1 (April to June)', '₹1,200.50', '₹0.00', ''],
    ]);
    expect(screen.getByText('Your PAN now: ABCDE1234F')).toBeInTheDocument();
    // The server scopes it from the session: the screen names nobody.
    const asked = api.requests.filter((r) => r.path === 'tds/quarters');
    expect(asked.map((r) => r.query.toString())).toEqual(['']);
  });

  it('downloads a quarter’s certificate as a PDF', async () => {
    login(UserType.DISTRIBUTOR);
    const api = tdsServer(() => jsonResponse(200, { result: QUARTERS }));
    visit('/my-tds');
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Download the certificate of 2026-27 Q3 (PDF)' }),
    );
    await waitFor(() => expect(saved).toEqual(['tds-certificate-2026-27-Q3.pdf']));
    const [certificate] = api.requests.filter((r) => r.path === 'tds/certificate');
    expect(Object.fromEntries(certificate.query)).toEqual({
      userId: RETAILER,
      fy: '2026-27',
      quarter: 'Q3',
      format: 'pdf',
      lang: 'en',
    });
  });

  it('says so when nothing was credited or taxed yet, and shows a refusal in Hindi', async () => {
    login(UserType.MASTER_DISTRIBUTOR);
    tdsServer(() => jsonResponse(200, { result: { ...QUARTERS, quarters: [] } }));
    const view = visit('/my-tds');
    expect(
      await screen.findByText('No commission has been credited to you or taxed yet.'),
    ).toBeInTheDocument();
    view.unmount();
    localStorage.setItem('RaStore.locale', JSON.stringify('hi'));
    tdsServer(() => jsonResponse(404, { message: TDS_MSG.notDeductee }));
    visit('/my-tds');
    expect(await screen.findByRole('heading', { level: 1, name: 'मेरा टीडीएस' })).toBeInTheDocument();
    expect(await screen.findByText('आपकी तिमाहियाँ लोड नहीं हो सकीं।')).toBeInTheDocument();
    expect(await screen.findByText(/इस उपयोगकर्ता का कर नहीं कटता/)).toBeInTheDocument();
  });

  it('lists the quarters in Hindi, the button named in Hindi, and downloads the certificate in Hindi', async () => {
    login(UserType.RETAILER);
    localStorage.setItem('RaStore.locale', JSON.stringify('hi'));
    const api = tdsServer(() => jsonResponse(200, { result: QUARTERS }));
    visit('/my-tds');
    const table = await screen.findByRole('table', { name: 'तिमाहियाँ' });
    expect(within(table).getByText('तीसरी तिमाही (अक्टूबर से दिसंबर)')).toBeInTheDocument();
    await userEvent.setup().click(
      within(table).getByRole('button', {
        name: '2026-27 की तीसरी तिमाही का प्रमाणपत्र डाउनलोड करें (PDF)',
      }),
    );
    await waitFor(() => expect(saved).toEqual(['tds-certificate-2026-27-Q3.pdf']));
    const [certificate] = api.requests.filter((r) => r.path === 'tds/certificate');
    expect(certificate.query.get('lang')).toBe('hi');
  });

  it('is not offered to staff, and sends nothing for them', async () => {
    login(UserType.ADMIN);
    const api = tdsServer(() => jsonResponse(200, { result: QUARTERS }));
    visit('/my-tds');
    expect(await screen.findByText(MSG.forbidden)).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'My TDS' })).not.toBeInTheDocument();
    expect(api.requests.filter((r) => r.path === 'tds/quarters')).toEqual([]);
  });
});
