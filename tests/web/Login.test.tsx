import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { MFA_MSG } from '../../src/shared/constants/mfa';
import { MSG } from '../../src/shared/messages';
import { hi } from '../../src/web/i18n/hi';
import { afterLoginPath, Login } from '../../src/web/pages/Login';
import { jsonResponse, renderInAdmin, wireUser } from './helpers';

const renderLogin = () =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/auth" element={<Login />} />
        <Route path="/home" element={<div>HOME SCREEN</div>} />
        <Route path="/welcome" element={<div>WELCOME SCREEN</div>} />
      </Routes>,
      { path: '/auth' },
    ),
  );

describe('Login page (the sign-in form inside the panel)', () => {
  it('shows the seed texts and labelled fields', async () => {
    renderLogin();
    expect(await screen.findByRole('heading', { name: 'Welcome back!' })).toBeInTheDocument();
    expect(screen.getByText('Enter your details to continue')).toBeInTheDocument();
    expect(screen.getByLabelText('Mobile *')).toBeInTheDocument();
    expect(screen.getByLabelText('Password *')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Create Account' })).toHaveAttribute('href', '/welcome');
    expect(screen.getByRole('link', { name: 'Tierdesk home' })).toHaveAttribute('href', '/');
  });

  it('toggles password visibility', async () => {
    const user = userEvent.setup();
    renderLogin();
    const password = await screen.findByLabelText('Password *');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it('shows no field messages before a field is touched', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.type(await screen.findByLabelText('Mobile *'), '12');
    expect(screen.queryByText('Minimum length not fulfilled')).not.toBeInTheDocument();
    expect(screen.queryByText('This field is required')).not.toBeInTheDocument();
  });

  it('submitting empty marks both fields required and toasts the invalid-form message', async () => {
    const user = userEvent.setup();
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderLogin();
    await user.click(await screen.findByRole('button', { name: 'Login' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    expect(screen.getByLabelText('Mobile *')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Password *')).toHaveAttribute('aria-invalid', 'true');
    expect(await screen.findByText(MSG.invalidLoginForm)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a 3-character mobile shows the minimum length message once touched', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.type(await screen.findByLabelText('Mobile *'), '123');
    await user.tab();
    expect(await screen.findByText('Minimum length not fulfilled')).toBeInTheDocument();
  });

  it('Enter submits; success stores the session, toasts and goes to /home', async () => {
    const user = userEvent.setup();
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(
        jsonResponse(200, { result: { token: 'tok-9', user: wireUser() }, message: MSG.loginSuccess }),
      )
      .mockResolvedValueOnce(jsonResponse(200, { result: { users: [wireUser()], totalCounts: 1 } }));
    vi.stubGlobal('fetch', fetchMock);
    renderLogin();
    await user.type(await screen.findByLabelText('Mobile *'), ' 9000000001 ');
    await user.type(screen.getByLabelText('Password *'), 'Secret#123{Enter}');
    expect(await screen.findByText('HOME SCREEN')).toBeInTheDocument();
    expect(await screen.findByText(MSG.loginSuccess)).toBeInTheDocument();
    expect(JSON.parse(String((fetchMock.mock.calls[0] as [string, RequestInit])[1].body))).toEqual({
      userName: '9000000001',
      password: 'Secret#123',
    });
    expect(localStorage.getItem('authToken')).toBe('tok-9');
  });

  it("follows Create Account and the logo in the panel's router", async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.click(await screen.findByRole('link', { name: 'Create Account' }));
    expect(await screen.findByText('WELCOME SCREEN')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Welcome back!' })).not.toBeInTheDocument();
  });

  it("in Hindi: the form's texts and the panel's toasts", async () => {
    const user = userEvent.setup();
    render(
      renderInAdmin(
        <Routes>
          <Route path="/auth" element={<Login />} />
        </Routes>,
        { path: '/auth', locale: 'hi' },
      ),
    );
    expect(await screen.findByRole('heading', { name: hi.app.login.heading })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: hi.app.login.submit }));
    expect(await screen.findByText(hi.app.shared.msg.invalidLoginForm)).toBeInTheDocument();
    expect(screen.getAllByText(hi.app.shared.msg.required)).toHaveLength(2);
    document.documentElement.lang = 'en';
  });

  it('shows a server refusal in the red error toast and stays on the page', async () => {
    const user = userEvent.setup();
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(jsonResponse(403, { message: MSG.customerLoginRefused })),
    );
    renderLogin();
    await user.type(await screen.findByLabelText('Mobile *'), '9000000009');
    await user.type(screen.getByLabelText('Password *'), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    const toast = await screen.findByText(`Error: ${MSG.customerLoginRefused}`);
    expect(toast.closest('[role="alert"]')).toHaveTextContent(MSG.errorTitle);
    expect(screen.queryByText('HOME SCREEN')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled());
    expect(localStorage.getItem('authToken')).toBeNull();
  });
});

describe('the second step', () => {
  const asked = (message: string = MFA_MSG.codeRequired) =>
    jsonResponse(401, { message, result: { mfaRequired: true } });
  const signedIn = () => [
    jsonResponse(200, {
      result: { token: 'tok-2', user: wireUser({ mfaEnabled: true }) },
      message: MSG.loginSuccess,
    }),
    jsonResponse(200, { result: { users: [wireUser({ mfaEnabled: true })], totalCounts: 1 } }),
  ];
  const bodies = (fetchMock: ReturnType<typeof vi.fn>) =>
    fetchMock.mock.calls
      .filter(([url]) => String(url).endsWith('account/login'))
      .map(([, init]) => JSON.parse(String((init as RequestInit).body)));
  /** The server answers with `answers` in turn; the right mobile and password are typed and sent. */
  const sendPassword = async (...answers: Response[]) => {
    const user = userEvent.setup();
    const fetchMock = vi.fn();
    for (const answer of answers) fetchMock.mockResolvedValueOnce(answer);
    vi.stubGlobal('fetch', fetchMock);
    renderLogin();
    await user.type(await screen.findByLabelText('Mobile *'), '9999999999');
    await user.type(screen.getByLabelText('Password *'), 'Admin@1234{Enter}');
    return { user, fetchMock };
  };

  it('asks for the code after the right password, then signs in with it; a wrong code is a red toast', async () => {
    const { user, fetchMock } = await sendPassword(asked(), asked(MFA_MSG.wrongCode), ...signedIn());

    const code = await screen.findByLabelText('Authentication code *');
    expect(screen.getByRole('status')).toHaveTextContent(MFA_MSG.codeRequired);
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    await waitFor(() => expect(code).toHaveFocus());
    // Asking is not an error.
    expect(screen.queryByText(`Error: ${MFA_MSG.codeRequired}`)).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(code).toHaveAccessibleDescription(MFA_MSG.codeRequired));
    await user.type(code, '12x');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText(MFA_MSG.codeFormat)).toBeInTheDocument();
    expect(bodies(fetchMock)).toHaveLength(1);

    await user.clear(code);
    await user.type(code, '111111{Enter}');
    expect(await screen.findByText(`Error: ${MFA_MSG.wrongCode}`)).toBeInTheDocument();
    expect(screen.getByLabelText('Authentication code *')).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, ' 222222 {Enter}');
    expect(await screen.findByText('HOME SCREEN')).toBeInTheDocument();
    expect(bodies(fetchMock)).toEqual([
      { userName: '9999999999', password: 'Admin@1234' },
      { userName: '9999999999', password: 'Admin@1234', otp: '111111' },
      { userName: '9999999999', password: 'Admin@1234', otp: '222222' },
    ]);
    expect(localStorage.getItem('authToken')).toBe('tok-2');
  });

  it('takes a recovery code instead', async () => {
    const { user, fetchMock } = await sendPassword(asked(), ...signedIn());
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code instead' }));
    expect(screen.getByLabelText('Authentication code *')).not.toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Enter one of the recovery codes you kept when you set up two-step sign-in',
    );
    await user.type(await screen.findByLabelText('Recovery code *'), 'abcde-fghjk{Enter}');
    expect(await screen.findByText('HOME SCREEN')).toBeInTheDocument();
    expect(bodies(fetchMock)).toEqual([
      { userName: '9999999999', password: 'Admin@1234' },
      { userName: '9999999999', password: 'Admin@1234', recoveryCode: 'abcde-fghjk' },
    ]);
    expect(
      screen.queryByRole('button', { name: 'Use the code from your authenticator app instead' }),
    ).not.toBeInTheDocument();
  });
});

describe('after signing in', () => {
  it("returns to where the session ended (react-admin's nextPathname), else home; never off the panel", () => {
    expect(afterLoginPath({ nextPathname: '/customer/list', nextSearch: '?page=2' })).toBe(
      '/customer/list?page=2',
    );
    expect(afterLoginPath({ nextPathname: '/sale/abc' })).toBe('/sale/abc');
    expect(afterLoginPath(undefined)).toBe('/home');
    expect(afterLoginPath({ nextPathname: '/auth' })).toBe('/home');
    expect(afterLoginPath({ nextPathname: '//evil.example/x' })).toBe('/home');
    expect(afterLoginPath({ nextPathname: 'https://evil.example' })).toBe('/home');
  });
});
