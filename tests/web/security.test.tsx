import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { MFA_MSG } from '../../src/shared/constants/mfa';
import { SALES_MSG } from '../../src/shared/schemas/sales';
import type { WireSession, WireUser } from '../../src/shared/wire';
import { AppUserMenu } from '../../src/web/layout/UserMenu';
import { Dashboard } from '../../src/web/pages/Dashboard';
import { SecurityPage } from '../../src/web/pages/security/SecurityPage';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { getStoredUser, SESSION_KEYS } from '../../src/web/providers/session';
import { ApprovalList } from '../../src/web/resources/approvals/ApprovalList';
import { jsonResponse, renderInAdmin, wireCommand, wireUser } from './helpers';

/**
 * Issue 51 in the panel: the Security page (the second step on or off, its set-up with the QR code, the key and the
 * recovery codes, switching it off, the sessions), the set-up the dashboard forces, and the code the Approve and
 * Reject dialogs ask a checker with a second step for. The server is stubbed at fetch, so the calls' URLs and bodies
 * are the wire's.
 */

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);
const RIGHT_CODE = '123456';

const signIn = (overrides: Partial<WireUser> = {}) => {
  const user = wireUser(overrides);
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const session = (overrides: Partial<WireSession>): WireSession => ({
  _id: '11111111-1111-4111-8111-111111111111',
  createdAt: '2026-11-26T05:30:00.000Z',
  lastSeenAt: '2026-11-26T06:00:00.000Z',
  ip: '10.0.0.1',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
  current: true,
  ...overrides,
});

/** The server's account calls as the panel meets them, with the person's second step off at first. */
const stubServer = ({ enabled = false } = {}) => {
  const state = {
    enabled,
    sessions: [
      session({}),
      session({
        _id: '22222222-2222-4222-8222-222222222222',
        ip: '10.0.0.2',
        userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile Safari',
        createdAt: '2026-11-20T04:00:00.000Z',
        current: false,
      }),
    ],
  };
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://x');
    const path = url.pathname.replace('/api/v1/', '');
    const body = init.body ? JSON.parse(String(init.body)) : {};
    if (path === 'account/fetch')
      return jsonResponse(200, {
        result: { users: [wireUser({ mfaEnabled: state.enabled, mfaSetupRequired: false })], totalCounts: 1 },
      });
    if (path === 'account/mfa/setup')
      return jsonResponse(200, {
        result: {
          secret: SECRET,
          otpauthUri: `otpauth://totp/Tierdesk:9000000001?secret=${SECRET}&issuer=Tierdesk`,
        },
      });
    if (path === 'account/mfa/enable') {
      if (body.otp !== RIGHT_CODE)
        return jsonResponse(400, {
          message: MFA_MSG.wrongCode,
          errors: [{ msg: MFA_MSG.wrongCode, param: 'otp' }],
        });
      state.enabled = true;
      return jsonResponse(200, { result: { recoveryCodes: CODES }, message: MFA_MSG.enabled });
    }
    if (path === 'account/mfa/disable') {
      state.enabled = false;
      return jsonResponse(200, { result: true, message: MFA_MSG.disabled });
    }
    if (path === 'account/sessions')
      return jsonResponse(200, { result: { sessions: state.sessions, totalCounts: state.sessions.length } });
    if (path.startsWith('account/sessions/revoke/')) {
      state.sessions = state.sessions.filter((s) => !path.endsWith(s._id));
      return jsonResponse(200, { result: true, message: MFA_MSG.sessionEnded });
    }
    if (path === 'report/userCounts') return jsonResponse(200, { result: { userReport: [{}] } });
    if (path === 'report/commissions')
      return jsonResponse(200, { result: { commissions: { today: 0, month: 0, clearing: 0 } } });
    return jsonResponse(404, { message: `not stubbed: ${path}` });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
};

const posts = (fetch: ReturnType<typeof vi.fn>) =>
  fetch.mock.calls
    .filter(([, init]) => (init as RequestInit | undefined)?.method === 'POST')
    .map(([url, init]) => [
      String(url),
      (init as RequestInit).body ? JSON.parse(String((init as RequestInit).body)) : undefined,
    ]);

const renderPage = (locale?: 'hi') =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/security" element={<SecurityPage />} />
      </Routes>,
      { path: '/security', dataProvider: createDataProvider(), locale },
    ),
  );

describe('the Security page', () => {
  it('sets the second step up: the QR code and the key, a code to switch it on, then the recovery codes once', async () => {
    signIn();
    const fetch = stubServer();
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Security' })).toBeInTheDocument();
    const card = screen.getByRole('region', { name: 'Two-step sign-in' });
    expect(await within(card).findByText('Off: your password alone signs you in.')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Set Up' }));

    const dialog = await screen.findByRole('dialog', { name: 'Set Up Two-Step Sign-In' });
    expect(
      await within(dialog).findByRole('img', { name: 'QR code of your key, for your authenticator app' }),
    ).toHaveAttribute('src', expect.stringMatching(/^data:image\/svg\+xml/));
    expect(within(dialog).getByText(SECRET)).toBeInTheDocument();
    const code = within(dialog).getByLabelText('Code from your authenticator app *');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveFocus();

    await user.type(code, '12ab');
    await user.click(within(dialog).getByRole('button', { name: 'Switch On' }));
    expect(await within(dialog).findByText(MFA_MSG.codeFormat)).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, '654321');
    await user.click(within(dialog).getByRole('button', { name: 'Switch On' }));
    expect(await screen.findByText(`Error: ${MFA_MSG.wrongCode}`)).toBeInTheDocument();
    expect(await within(dialog).findByText(MFA_MSG.wrongCode)).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, RIGHT_CODE);
    await user.click(within(dialog).getByRole('button', { name: 'Switch On' }));

    const codes = await screen.findByRole('dialog', { name: 'Your Recovery Codes' });
    expect(await screen.findByText(MFA_MSG.enabled)).toBeInTheDocument();
    const list = within(codes).getByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    await user.click(within(codes).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(CODES.join('\n'));
    expect(await screen.findByText('Recovery codes copied')).toBeInTheDocument();
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    await user.click(within(codes).getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
    await user.click(within(codes).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    expect(
      await within(card).findByText(
        'On: after your password, signing in asks for the code your authenticator app shows.',
      ),
    ).toBeInTheDocument();
    expect(posts(fetch).filter(([url]) => url.includes('account/mfa'))).toEqual([
      ['/api/v1/account/mfa/setup', {}],
      ['/api/v1/account/mfa/enable', { otp: '654321' }],
      ['/api/v1/account/mfa/enable', { otp: RIGHT_CODE }],
    ]);
    // The rest of the panel reads it from the stored user: Approve now asks for the code.
    expect(getStoredUser()).toMatchObject({ mfaEnabled: true, mfaSetupRequired: false });
  });

  it('switches it off with a recovery code instead of the app’s code', async () => {
    signIn({ mfaEnabled: true });
    const fetch = stubServer({ enabled: true });
    const user = userEvent.setup();
    renderPage();
    const card = await screen.findByRole('region', { name: 'Two-step sign-in' });
    await user.click(await within(card).findByRole('button', { name: 'Switch Off' }));
    const dialog = await screen.findByRole('dialog', { name: 'Switch Off Two-Step Sign-In' });
    expect(within(dialog).getByLabelText('Code from your authenticator app *')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Use a recovery code instead' }));
    const recovery = await within(dialog).findByLabelText('Recovery code *');
    await user.click(within(dialog).getByRole('button', { name: 'Switch Off' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    await user.type(recovery, ' abcd0-efgh0 ');
    await user.click(within(dialog).getByRole('button', { name: 'Switch Off' }));
    expect(await screen.findByText(MFA_MSG.disabled)).toBeInTheDocument();
    expect(await within(card).findByText('Off: your password alone signs you in.')).toBeInTheDocument();
    expect(posts(fetch)).toEqual([['/api/v1/account/mfa/disable', { recoveryCode: 'abcd0-efgh0' }]]);
    expect(getStoredUser()?.mfaEnabled).toBe(false);
  });

  it('lists the sessions, marks this one, and ends another', async () => {
    signIn();
    const fetch = stubServer();
    const user = userEvent.setup();
    renderPage();
    const table = await screen.findByRole('table', { name: 'Your sessions' });
    expect(
      await within(table).findByText('Mozilla/5.0 (Linux; Android 14) Mobile Safari'),
    ).toBeInTheDocument();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByText('This session')).toBeInTheDocument();
    expect(within(rows[0]).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rows[1]).getByText('10.0.0.2')).toBeInTheDocument();
    await user.click(
      within(rows[1]).getByRole('button', { name: /^End the session signed in at Nov 20, 2026/ }),
    );
    expect(await screen.findByText(MFA_MSG.sessionEnded)).toBeInTheDocument();
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(posts(fetch)).toEqual([
      ['/api/v1/account/sessions/revoke/22222222-2222-4222-8222-222222222222', {}],
    ]);
  });

  it('speaks Hindi', async () => {
    signIn();
    stubServer();
    renderPage('hi');
    expect(await screen.findByRole('heading', { level: 1, name: 'सुरक्षा' })).toBeInTheDocument();
    const card = screen.getByRole('region', { name: 'दो-चरणीय साइन-इन' });
    expect(await within(card).findByText('बंद: केवल आपका पासवर्ड आपको साइन-इन करता है।')).toBeInTheDocument();
    expect(await screen.findByText('यह सत्र')).toBeInTheDocument();
  });
});

describe('the user menu', () => {
  it('links to the Security page', async () => {
    signIn();
    const user = userEvent.setup();
    render(
      renderInAdmin(
        <Routes>
          <Route path="/home" element={<AppUserMenu />} />
          <Route path="/security" element={<div>SECURITY SCREEN</div>} />
        </Routes>,
        { path: '/home' },
      ),
    );
    // On a phone (as here) an icon named Profile; wider, the person's name, named "Asha Admin, Profile".
    await user.click(await screen.findByRole('button', { name: /Profile$/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Security' }));
    expect(await screen.findByText('SECURITY SCREEN')).toBeInTheDocument();
  });
});

describe('a person who must set up a second step', () => {
  it('gets the set-up on the dashboard, which only Switch On or Logout leaves; the dashboard loads after', async () => {
    signIn({ mfaSetupRequired: true, mfaEnabled: false });
    const fetch = stubServer();
    const user = userEvent.setup();
    render(
      renderInAdmin(
        <Routes>
          <Route path="/home" element={<Dashboard />} />
        </Routes>,
        { path: '/home', dataProvider: createDataProvider() },
      ),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Set Up Two-Step Sign-In' });
    expect(
      within(dialog).getByText('Your account needs two-step sign-in. Set it up to continue.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    expect(await within(dialog).findByText(SECRET)).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Set Up Two-Step Sign-In' })).toBeInTheDocument();
    expect(screen.getByText('Set up two-step sign-in to see the dashboard.')).toBeInTheDocument();
    const called = () => fetch.mock.calls.map(([url]) => new URL(String(url), 'http://x').pathname);
    expect(called()).not.toContain('/api/v1/report/userCounts');

    await user.type(within(dialog).getByLabelText('Code from your authenticator app *'), RIGHT_CODE);
    await user.click(within(dialog).getByRole('button', { name: 'Switch On' }));
    const codes = await screen.findByRole('dialog', { name: 'Your Recovery Codes' });
    await user.click(within(codes).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(called()).toContain('/api/v1/report/userCounts'));
    expect(screen.queryByText('Set up two-step sign-in to see the dashboard.')).not.toBeInTheDocument();
  });
});

describe('step-up in the Approve and Reject dialogs', () => {
  const ID = '77777777-7777-4777-8777-777777777777';
  const pending = wireCommand({ _id: ID });
  const stubApprovals = () => {
    const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const path = new URL(String(input), 'http://x').pathname.replace('/api/v1/', '');
      if (path === 'approvals/fetch')
        return jsonResponse(200, { result: { approvals: [pending], totalCounts: 1 } });
      const body = init.body ? JSON.parse(String(init.body)) : {};
      if (!body.otp)
        return jsonResponse(400, {
          message: MFA_MSG.codeRequired,
          errors: [{ msg: MFA_MSG.codeRequired, param: 'otp' }],
        });
      return jsonResponse(200, {
        result: { ...pending, status: path.startsWith('approvals/approve') ? 'APPROVED' : 'REJECTED' },
        message: path.startsWith('approvals/approve') ? SALES_MSG.commandApproved : SALES_MSG.commandRejected,
      });
    });
    vi.stubGlobal('fetch', fetch);
    return fetch;
  };
  const renderList = () =>
    render(
      renderInAdmin(
        <Routes>
          <Route path="/approvals/list" element={<ApprovalList />} />
        </Routes>,
        { path: '/approvals/list', dataProvider: createDataProvider() },
      ),
    );

  it('a checker with a second step gives its code to approve, and to reject beside the reason', async () => {
    signIn({ mfaEnabled: true });
    const fetch = stubApprovals();
    const user = userEvent.setup();
    renderList();
    await user.click(
      await screen.findByRole('button', { name: 'Approve the payout of ₹25,000.00 for Rita Retailer' }),
    );
    const approve = await screen.findByRole('dialog', { name: 'Approve Command' });
    const code = within(approve).getByLabelText('Code from your authenticator app *');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await user.click(within(approve).getByRole('button', { name: 'Approve' }));
    expect(await within(approve).findByText(MFA_MSG.codeRequired)).toBeInTheDocument();
    await user.type(code, '246810');
    await user.click(within(approve).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText(SALES_MSG.commandApproved)).toBeInTheDocument();

    await user.click(
      await screen.findByRole('button', { name: 'Reject the payout of ₹25,000.00 for Rita Retailer' }),
    );
    const reject = await screen.findByRole('dialog', { name: 'Reject Command' });
    await user.type(within(reject).getByRole('textbox', { name: /Reason/ }), 'Wrong account');
    await user.type(within(reject).getByLabelText('Code from your authenticator app *'), '135790');
    await user.click(within(reject).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText(SALES_MSG.commandRejected)).toBeInTheDocument();
    expect(posts(fetch)).toEqual([
      [`/api/v1/approvals/approve/${ID}`, { otp: '246810' }],
      [`/api/v1/approvals/reject/${ID}`, { reason: 'Wrong account', otp: '135790' }],
    ]);
  });

  it('a checker without one is asked nothing', async () => {
    signIn({ mfaEnabled: false });
    stubApprovals();
    const user = userEvent.setup();
    renderList();
    await user.click(
      await screen.findByRole('button', { name: 'Approve the payout of ₹25,000.00 for Rita Retailer' }),
    );
    const approve = await screen.findByRole('dialog', { name: 'Approve Command' });
    expect(within(approve).queryByLabelText('Code from your authenticator app *')).not.toBeInTheDocument();
  });
});
