import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { MFA_MSG } from '../../src/shared/constants/mfa';
import { MSG } from '../../src/shared/messages';
import { en } from '../../src/web/i18n/en';
import { hi } from '../../src/web/i18n/hi';
import { LOCALES } from '../../src/web/i18n/i18n';
import { localise } from '../../src/web/i18n/sharedMessages';
import { validateLogin } from '../../src/web/pages/loginValidator';
import { drawSignIn, type SignInFormOptions, validateSignIn } from '../../src/web/signin/form';
import {
  type Locale,
  localiseIn,
  SIGNIN_LOCALES,
  SIGNIN_TEXTS,
  translateIn,
} from '../../src/web/signin/texts';
import { jsonResponse, wireUser } from './helpers';

const startPanel = vi.hoisted(() => vi.fn());
vi.mock('../../src/web/main', () => ({ startPanel }));

/** The panel's own translate for a language: its catalogues (en.ts, hi.ts) through polyglot, as i18n.ts builds it. */
const panelTranslate = (locale: Locale) => {
  const provider = polyglotI18nProvider(() => (locale === 'hi' ? hi : en), locale, LOCALES, {
    allowMissing: true,
  });
  return (key: string, args?: Record<string, unknown>) => provider.translate(key, args);
};

describe("the sign-in entry's texts are the panel's catalogue", () => {
  it.each(['en', 'hi'] as const)('every text in %s, plurals included', (locale) => {
    const translate = panelTranslate(locale);
    expect(Object.keys(SIGNIN_TEXTS[locale]).sort()).toEqual(Object.keys(SIGNIN_TEXTS.en).sort());
    for (const key of Object.keys(SIGNIN_TEXTS.en))
      for (const args of [
        { smart_count: 1, message: 'm', status: 500 },
        { smart_count: 7, message: 'm', status: 500 },
      ])
        expect(translateIn(locale, key, args), key).toBe(translate(key, args));
    expect(SIGNIN_LOCALES).toEqual(LOCALES);
  });

  it.each(['en', 'hi'] as const)(
    "localises the server's sign-in answers as the panel's toasts do (%s)",
    (locale) => {
      const translate = panelTranslate(locale);
      for (const text of [
        `Error: ${MSG.invalidCredentials}`,
        `Error: ${MSG.customerLoginRefused}`,
        `Error: ${MSG.inactiveUser}`,
        `Error: ${MSG.tooManyAttempts(1)}`,
        `Error: ${MSG.tooManyAttempts(12)}`,
        `Error: ${MSG.tooManyAddressAttempts(3)}`,
        `Error: ${MSG.tooManyPasswordAttempts(15)}`,
        `Error: ${MSG.internalError}`,
        `Error: ${MFA_MSG.wrongCode}`,
        `Error: ${MFA_MSG.usedCode}`,
        `Error: ${MFA_MSG.wrongRecoveryCode}`,
        MSG.internetError,
        'Error Code: 502 Message: Bad Gateway',
        'Error: something the catalogue does not know',
      ])
        expect(localiseIn(locale, text), text).toBe(localise(text, translate));
    },
  );

  it("validates as the server's login schema does, with its messages", async () => {
    const translate = panelTranslate('en');
    const shown = (error: unknown) =>
      error === undefined
        ? undefined
        : typeof error === 'string'
          ? localise(error, translate)
          : localise(
              (error as { message: string }).message,
              translate,
              (error as { args: Record<string, unknown> }).args,
            );
    for (const values of [
      { userName: '', password: '' },
      { userName: '   ', password: 'x' },
      { userName: ' 123 ', password: '' },
      { userName: '1234', password: 'p' },
      { userName: ' 9999999999 ', password: 'Admin@1234' },
      { userName: 'a'.repeat(101), password: 'x' },
      { userName: '9999999999', password: 'x', otp: '' },
      { userName: '9999999999', password: 'x', otp: '  ' },
      { userName: '9999999999', password: 'x', otp: '12345' },
      { userName: '9999999999', password: 'x', otp: '12a456' },
      { userName: '9999999999', password: 'x', otp: ' 123456 ' },
      { userName: '9999999999', password: 'x', recoveryCode: '' },
      { userName: '9999999999', password: 'x', recoveryCode: 'a'.repeat(65) },
      { userName: '9999999999', password: 'x', recoveryCode: 'abcde-fghjk' },
    ]) {
      const panel = (await validateLogin(values)) as Record<string, unknown>;
      const entry = validateSignIn(values);
      for (const field of ['userName', 'password', 'otp', 'recoveryCode'] as const)
        expect(
          entry[field] && localise(entry[field], translate),
          `${field} of ${JSON.stringify(values)}`,
        ).toBe(shown(panel[field]));
    }
  });
});

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
  it("shows the seed's texts, labelled required fields and the links, focus in Mobile", () => {
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
    expect(screen.getByText('Minimum length not fulfilled')).toBeInTheDocument();
    expect(screen.getByLabelText('Mobile *')).toHaveAccessibleDescription('Minimum length not fulfilled');
    await user.type(screen.getByLabelText('Mobile *'), '4');
    expect(screen.queryByText('Minimum length not fulfilled')).not.toBeInTheDocument();
  });

  it('an empty submit marks both fields, focuses Mobile and toasts the invalid-form message; nothing is sent', async () => {
    const user = userEvent.setup();
    const { onSubmit } = draw();
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.getAllByText('This field is required')).toHaveLength(2);
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
    expect(onSubmit).toHaveBeenCalledWith({ userName: '9000000009', password: 'whatever' });
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
    expect(onLocale).toHaveBeenCalledWith('hi');
    expect(screen.getByRole('heading', { name: 'फिर से स्वागत है!' })).toBeInTheDocument();
    expect(screen.getByLabelText('मोबाइल *')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'हिन्दी' })).toHaveFocus();
    expect(document.documentElement.lang).toBe('hi');
    await user.click(screen.getByRole('button', { name: 'लॉगिन' }));
    expect(screen.getByRole('alert')).toHaveTextContent('उपयोगकर्ता नाम या पासवर्ड अमान्य है');
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
    expect(code).toHaveAccessibleDescription(MFA_MSG.codeRequired);
    expect(screen.getByRole('alert')).toHaveTextContent(MSG.invalidLoginForm);
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
    await user.type(screen.getByLabelText('Mobile *'), '9000000001');
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
    await user.type(screen.getByLabelText('Mobile *'), '9999999999');
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
