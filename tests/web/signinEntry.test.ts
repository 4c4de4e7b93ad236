import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MFA_MSG } from '../../src/shared/constants/mfa';
import { MSG } from '../../src/shared/messages';
import { hi } from '../../src/web/i18n/hi';
import { drawSignIn, type SignInFormOptions } from '../../src/web/signin/form';
import { jsonResponse, wireUser } from './helpers';

const startPanel = vi.hoisted(() => vi.fn());
vi.mock('../../src/web/main', () => ({ startPanel }));

const draw = (overrides: Partial<SignInFormOptions> = {}) => {
  const root = document.createElement('div');
  document.body.replaceChildren(root);
  const options: SignInFormOptions = {
    locale: 'en',
    theme: 'light',
    onSubmit: vi.fn().mockResolvedValue(undefined),
    onLocale: vi.fn(),
    onTheme: vi.fn(),
    ...overrides,
  };
  drawSignIn(root, options);
  return options;
};

describe('the sign-in form without the panel', () => {
  it("shows the seed's texts, labelled required fields and the links, focus in Mobile", async () => {
    draw();
    expect(screen.getByRole('heading', { name: 'Welcome back!' })).toBeInTheDocument();
    expect(screen.getByText('Enter your details to continue')).toBeInTheDocument();
    expect(screen.getByLabelText('Mobile *')).toHaveFocus();
    expect(screen.getByLabelText('Mobile *')).toHaveAttribute('autocomplete', 'username');
    expect(screen.getByLabelText('Password *')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Create Account' })).toHaveAttribute('href', '/welcome');
    expect(screen.getByRole('link', { name: 'Tierdesk home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Toggle light/dark mode' })).toBeInTheDocument();
  });

  it('toggles password visibility', async () => {
    const user = userEvent.setup();
    draw();
    const password = screen.getByLabelText('Password *');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it('shows no field message before a field is left, then the minimum length', async () => {
    const user = userEvent.setup();
    draw();
    await user.type(screen.getByLabelText('Mobile *'), '123');
    expect(screen.queryByText('Minimum length not fulfilled')).not.toBeInTheDocument();
    await user.tab();
    expect(await screen.findByText('Minimum length not fulfilled')).toBeInTheDocument();
    expect(screen.getByLabelText('Mobile *')).toHaveAccessibleDescription('Minimum length not fulfilled');
    await user.type(screen.getByLabelText('Mobile *'), '4');
    expect(screen.queryByText('Minimum length not fulfilled')).not.toBeInTheDocument();
  });

  it('an empty submit marks both fields, focuses Mobile and toasts the invalid-form message; nothing is sent', async () => {
    const user = userEvent.setup();
    const { onSubmit } = draw();
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    expect(screen.getByLabelText('Mobile *')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Password *')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Mobile *')).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent(MSG.invalidLoginForm);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('Enter submits the trimmed user name; a refusal shows in the Error!!! toast and Login works again', async () => {
    const user = userEvent.setup();
    let refuse!: (error: Error) => void;
    const onSubmit = vi.fn(() => new Promise<void>((_, reject) => (refuse = reject)));
    draw({ onSubmit });
    await user.type(screen.getByLabelText('Mobile *'), ' 9000000009 ');
    await user.type(screen.getByLabelText('Password *'), 'whatever{Enter}');
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({ userName: '9000000009', password: 'whatever' }),
    );
    expect(screen.getByRole('button', { name: 'Login' })).toBeDisabled();
    refuse(new Error(`Error: ${MSG.customerLoginRefused}`));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(MSG.errorTitle);
    expect(alert).toHaveTextContent(`Error: ${MSG.customerLoginRefused}`);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled());
  });

  it('the language menu switches to Hindi by keyboard and remembers it; a Hindi visitor gets Hindi texts', async () => {
    const user = userEvent.setup();
    const { onLocale } = draw();
    expect(screen.getByRole('button', { name: 'English' })).toHaveAttribute('aria-expanded', 'false');
    await user.click(screen.getByRole('button', { name: 'English' }));
    expect(screen.getByRole('button', { name: 'English' })).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'English' })).toHaveFocus();
    await user.keyboard('{ArrowDown}{Enter}');
    expect(await screen.findByRole('heading', { name: 'फिर से स्वागत है!' })).toBeInTheDocument();
    expect(onLocale).toHaveBeenCalledWith('hi');
    expect(screen.getByLabelText('मोबाइल *')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'हिन्दी' })).toHaveFocus();
    expect(document.documentElement.lang).toBe('hi');
    await user.click(screen.getByRole('button', { name: 'लॉगिन' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('उपयोगकर्ता नाम या पासवर्ड अमान्य है');
    document.documentElement.lang = 'en';
  });

  it("holds a field to the login schema's upper bound, in the reader's language", async () => {
    const user = userEvent.setup();
    draw();
    await user.click(screen.getByLabelText('Mobile *'));
    await user.paste('9'.repeat(101));
    await user.click(screen.getByLabelText('Password *'));
    await user.paste('p'.repeat(201));
    await user.tab();
    expect(await screen.findByText('At most 100 characters')).toBeInTheDocument();
    expect(screen.getByLabelText('Password *')).toHaveAccessibleDescription('At most 200 characters');

    draw({ locale: 'hi' });
    await user.click(screen.getByLabelText('मोबाइल *'));
    await user.paste('9'.repeat(101));
    await user.tab();
    expect(await screen.findByText('अधिकतम 100 अक्षर')).toBeInTheDocument();
    expect(screen.queryByText(/At most/)).not.toBeInTheDocument();
    document.documentElement.lang = 'en';
  });

  it("shows the server's refusals in Hindi to a Hindi reader, the minutes in place", async () => {
    const user = userEvent.setup();
    const onSubmit = vi
      .fn()
      .mockRejectedValueOnce(new Error(`Error: ${MSG.tooManyAttempts(12)}`))
      .mockRejectedValueOnce(new Error(MSG.internetError))
      .mockRejectedValueOnce(new Error('Error: a text the panel does not know'));
    draw({ onSubmit, locale: 'hi' });
    await user.type(screen.getByLabelText('मोबाइल *'), '9999999999');
    await user.type(screen.getByLabelText('पासवर्ड *'), 'Admin@1234{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(hi.app.shared.msg.errorTitle);
    expect(alert).toHaveTextContent(`त्रुटि: बहुत अधिक विफल लॉगिन प्रयास। 12 मिनट बाद फिर से प्रयास करें।`);
    await user.click(screen.getByRole('button', { name: 'लॉगिन' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(hi.app.shared.msg.internetError));
    expect(screen.getByRole('alert')).not.toHaveTextContent(hi.app.shared.msg.errorTitle);
    await user.click(screen.getByRole('button', { name: 'लॉगिन' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('त्रुटि: a text the panel does not know'),
    );
    document.documentElement.lang = 'en';
  });
});

describe('the second step in the form without the panel', () => {
  /** The server's refusal asking for the second step, as the entry's request core throws it. */
  const asked = (message: string = MFA_MSG.codeRequired) =>
    Object.assign(new Error(`Error: ${message}`), {
      status: 401,
      body: { message, result: { mfaRequired: true } },
    });

  it('asks for the code after the right password, sends it with the password, and toasts a wrong one', async () => {
    const user = userEvent.setup();
    const onSubmit = vi
      .fn()
      .mockRejectedValueOnce(asked())
      .mockRejectedValueOnce(asked(MFA_MSG.wrongCode))
      .mockResolvedValueOnce(undefined);
    draw({ onSubmit });
    const code = screen.getByLabelText('Authentication code *');
    expect(code).not.toBeVisible();
    await user.type(screen.getByLabelText('Mobile *'), '9999999999');
    await user.type(screen.getByLabelText('Password *'), 'Admin@1234{Enter}');
    await waitFor(() => expect(code).toBeVisible());
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(screen.getByRole('status')).toHaveTextContent(MFA_MSG.codeRequired);
    // Asking is not an error.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(code).toHaveAccessibleDescription(MFA_MSG.codeRequired));
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.invalidLoginForm);
    await user.type(code, '12a456');
    expect(code).toHaveAccessibleDescription(MFA_MSG.codeFormat);
    await user.clear(code);
    await user.type(code, '111111{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(`Error: ${MFA_MSG.wrongCode}`);
    await user.clear(code);
    await user.type(code, ' 222222 {Enter}');
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(3));
    expect(onSubmit.mock.calls.map(([values]) => values)).toEqual([
      { userName: '9999999999', password: 'Admin@1234' },
      { userName: '9999999999', password: 'Admin@1234', otp: '111111' },
      { userName: '9999999999', password: 'Admin@1234', otp: '222222' },
    ]);
  });

  it('takes a recovery code instead, and back; in Hindi too', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn().mockRejectedValueOnce(asked()).mockResolvedValueOnce(undefined);
    draw({ onSubmit, locale: 'hi' });
    await user.type(screen.getByLabelText('मोबाइल *'), '9999999999');
    await user.type(screen.getByLabelText('पासवर्ड *'), 'Admin@1234{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent('अपने ऑथेंटिकेटर ऐप से कोड दर्ज करें');
    await user.click(screen.getByRole('button', { name: 'इसके बजाय रिकवरी कोड का उपयोग करें' }));
    const recovery = screen.getByLabelText('रिकवरी कोड *');
    expect(recovery).toBeVisible();
    expect(recovery).toHaveFocus();
    expect(screen.getByLabelText('प्रमाणीकरण कोड *')).not.toBeVisible();
    await user.click(screen.getByRole('button', { name: 'इसके बजाय ऑथेंटिकेटर ऐप का कोड उपयोग करें' }));
    expect(screen.getByLabelText('प्रमाणीकरण कोड *')).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'इसके बजाय रिकवरी कोड का उपयोग करें' }));
    await user.type(recovery, 'abcde-fghjk{Enter}');
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(2));
    expect(onSubmit).toHaveBeenLastCalledWith({
      userName: '9999999999',
      password: 'Admin@1234',
      recoveryCode: 'abcde-fghjk',
    });
    document.documentElement.lang = 'en';
  });
});

describe('the entry (index.html script)', () => {
  it('signed out on /auth: draws the form; Login stores the session as authProvider does and starts the panel at /home', async () => {
    const user = userEvent.setup();
    window.history.replaceState(null, '', '/auth');
    document.body.replaceChildren(Object.assign(document.createElement('div'), { id: 'root' }));
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(
        jsonResponse(200, { result: { token: 'tok-9', user: wireUser() }, message: MSG.loginSuccess }),
      )
      .mockResolvedValueOnce(
        jsonResponse(200, { result: { users: [wireUser({ name: 'Full Record' })], totalCounts: 1 } }),
      );
    vi.stubGlobal('fetch', fetchMock);
    vi.resetModules();
    await import('../../src/web/entry');
    await user.type(await screen.findByLabelText('Mobile *'), '9000000001');
    await user.type(screen.getByLabelText('Password *'), 'Secret#123{Enter}');
    await waitFor(() => expect(startPanel).toHaveBeenCalledTimes(1));
    expect(startPanel).toHaveBeenCalledWith(document.getElementById('root'), { notice: MSG.loginSuccess });
    expect(window.location.pathname).toBe('/home');
    expect(screen.queryByRole('heading', { name: 'Welcome back!' })).not.toBeInTheDocument();
    const [loginUrl, loginInit] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(loginUrl).toBe('/api/v1/account/login');
    expect(JSON.parse(String(loginInit.body))).toEqual({ userName: '9000000001', password: 'Secret#123' });
    expect(fetchMock.mock.calls[1][0]).toBe('/api/v1/account/fetch?_id=u-1');
    expect(localStorage.getItem('authToken')).toBe('tok-9');
    expect(JSON.parse(String(localStorage.getItem('userData')))).toEqual({ user: wireUser() });
    expect(JSON.parse(String(localStorage.getItem('uDD'))).name).toBe('Full Record');
  });

  it('a person with a second step: the server asks, the code goes with the password, the panel starts', async () => {
    const user = userEvent.setup();
    window.history.replaceState(null, '', '/auth');
    document.body.replaceChildren(Object.assign(document.createElement('div'), { id: 'root' }));
    startPanel.mockClear();
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(
        jsonResponse(401, { message: MFA_MSG.codeRequired, result: { mfaRequired: true } }),
      )
      .mockResolvedValueOnce(
        jsonResponse(200, {
          result: { token: 'tok-7', user: wireUser({ mfaEnabled: true }) },
          message: MSG.loginSuccess,
        }),
      )
      .mockResolvedValueOnce(
        jsonResponse(200, { result: { users: [wireUser({ mfaEnabled: true })], totalCounts: 1 } }),
      );
    vi.stubGlobal('fetch', fetchMock);
    vi.resetModules();
    await import('../../src/web/entry');
    await user.type(await screen.findByLabelText('Mobile *'), '9999999999');
    await user.type(screen.getByLabelText('Password *'), 'Admin@1234{Enter}');
    const code = screen.getByLabelText('Authentication code *');
    await waitFor(() => expect(code).toHaveFocus());
    expect(startPanel).not.toHaveBeenCalled();
    expect(localStorage.getItem('authToken')).toBeNull();
    await user.type(code, '123456{Enter}');
    await waitFor(() => expect(startPanel).toHaveBeenCalledTimes(1));
    expect(
      fetchMock.mock.calls
        .filter(([url]) => url === '/api/v1/account/login')
        .map(([, init]) => JSON.parse(String((init as RequestInit).body))),
    ).toEqual([
      { userName: '9999999999', password: 'Admin@1234' },
      { userName: '9999999999', password: 'Admin@1234', otp: '123456' },
    ]);
    expect(localStorage.getItem('authToken')).toBe('tok-7');
    expect(JSON.parse(String(localStorage.getItem('uDD'))).mfaEnabled).toBe(true);
  });

  it("a Hindi reader's choice, remembered by the panel, draws the form in Hindi", async () => {
    window.history.replaceState(null, '', '/auth');
    localStorage.setItem('RaStore.locale', '"hi"');
    document.body.replaceChildren(Object.assign(document.createElement('div'), { id: 'root' }));
    vi.resetModules();
    await import('../../src/web/entry');
    expect(await screen.findByRole('heading', { name: hi.app.login.heading })).toBeInTheDocument();
    expect(screen.getByLabelText(`${hi.app.login.mobile} *`)).toHaveFocus();
    expect(screen.getByRole('button', { name: hi.app.login.submit })).toBeEnabled();
    expect(document.documentElement.lang).toBe('hi');
    document.documentElement.lang = 'en';
  });

  it('signed in: starts the panel at once, drawing no form', async () => {
    window.history.replaceState(null, '', '/auth');
    localStorage.setItem('authToken', 'tok-1');
    document.body.replaceChildren(Object.assign(document.createElement('div'), { id: 'root' }));
    startPanel.mockClear();
    vi.resetModules();
    await import('../../src/web/entry');
    await waitFor(() => expect(startPanel).toHaveBeenCalledWith(document.getElementById('root')));
    expect(screen.queryByRole('heading', { name: 'Welcome back!' })).not.toBeInTheDocument();
  });
});
