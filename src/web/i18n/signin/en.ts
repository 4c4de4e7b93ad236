import { MFA_MSG } from '../../../shared/constants/mfa';
import { MSG } from '../../../shared/messages';

/**
 * The sign-in form's texts in English (signin/form.ts): the one copy of them. The panel's catalogue (en.ts) takes
 * them from here, so the form drawn before the panel and the panel's own texts cannot differ; this module stays
 * small, because the sign-in page's first script carries it (with hi.ts, the Hindi). The shared texts (what the server and the login schema say) are the constants themselves, with
 * their templated ones as polyglot phrases that give the server's exact English.
 */
export const signinEn = {
  ra: {
    action: { close: 'Close', toggle_theme: 'Toggle light/dark mode' },
    input: { password: { toggle_visible: 'Hide password', toggle_hidden: 'Show password' } },
  },
  app: {
    title: 'Tierdesk',
    notification: {
      errorTitle: MSG.errorTitle,
      /** Seed section 8: 'Error: ' + the server's message. */
      httpError: 'Error: %{message}',
      httpStatus: 'Error Code: %{status} Message: %{message}',
    },
    login: {
      heading: 'Welcome back!',
      subtext: 'Enter your details to continue',
      mobile: 'Mobile',
      password: 'Password',
      submit: 'Login',
      createAccount: 'Create Account',
      logoHome: 'Tierdesk home',
      otp: 'Authentication code',
      recoveryCode: 'Recovery code',
      recoveryHint: 'Enter one of the recovery codes you kept when you set up two-step sign-in',
      useRecoveryCode: 'Use a recovery code instead',
      useOtp: 'Use the code from your authenticator app instead',
    },
    shared: {
      /** The login schema's field messages and the server's answers to a sign-in. */
      msg: {
        required: MSG.required,
        minLength: MSG.minLength,
        atMost: 'At most %{max} characters',
        invalidLoginForm: MSG.invalidLoginForm,
        invalidCredentials: MSG.invalidCredentials,
        customerLoginRefused: MSG.customerLoginRefused,
        inactiveUser: MSG.inactiveUser,
        passwordChangeRequired: MSG.passwordChangeRequired,
        internetError: MSG.internetError,
        internalError: MSG.internalError,
        databaseSwitching: MSG.databaseSwitching,
        validationFailed: MSG.validationFailed,
        xsrfRefused: MSG.xsrfRefused,
        requestTimeout: MSG.requestTimeout,
        tooManyAttempts:
          'Too many failed login attempts. Try again in %{smart_count} minute. |||| Too many failed login attempts. Try again in %{smart_count} minutes.',
        tooManyAddressAttempts:
          'Too many sign-in attempts from this network. Try again in %{smart_count} minute. |||| Too many sign-in attempts from this network. Try again in %{smart_count} minutes.',
        tooManyPasswordAttempts:
          'Too many wrong passwords. Try again in %{smart_count} minute. |||| Too many wrong passwords. Try again in %{smart_count} minutes.',
      },
      mfa: {
        codeRequired: MFA_MSG.codeRequired,
        codeFormat: MFA_MSG.codeFormat,
        wrongCode: MFA_MSG.wrongCode,
        usedCode: MFA_MSG.usedCode,
        wrongRecoveryCode: MFA_MSG.wrongRecoveryCode,
      },
    },
  },
};

/** A catalogue of the same keys as `T`, in another language. */
export type SameKeys<T> = { [K in keyof T]: T[K] extends string ? string : SameKeys<T[K]> };

/** The shape every language of the sign-in texts has (hi.ts is typed by it, so no key can be missing there). */
export type SignInTexts = SameKeys<typeof signinEn>;
