import { MFA_MSG } from '../../shared/constants/mfa';
import { MSG } from '../../shared/messages';

/**
 * The texts of the sign-in entry, in English and Hindi, under the panel's catalogue keys: the entry draws the
 * login form before the panel's catalogues (en.ts, hi.ts, react-admin's) are loaded, so it carries the few it
 * shows. tests/web/signinEntry.test.ts holds every one to the panel's catalogue, so the two cannot drift.
 */
export type Locale = 'en' | 'hi';

/** The panel's languages (i18n.ts LOCALES), with the name each is offered under. */
export const SIGNIN_LOCALES: { locale: Locale; name: string }[] = [
  { locale: 'en', name: 'English' },
  { locale: 'hi', name: 'हिन्दी' },
];

export const SIGNIN_TEXTS: Record<Locale, Record<string, string>> = {
  en: {
    'app.title': 'Tierdesk',
    'app.login.heading': 'Welcome back!',
    'app.login.subtext': 'Enter your details to continue',
    'app.login.mobile': 'Mobile',
    'app.login.password': 'Password',
    'app.login.submit': 'Login',
    'app.login.createAccount': 'Create Account',
    'app.login.logoHome': 'Tierdesk home',
    'app.login.otp': 'Authentication code',
    'app.login.recoveryCode': 'Recovery code',
    'app.login.recoveryHint': 'Enter one of the recovery codes you kept when you set up two-step sign-in',
    'app.login.useRecoveryCode': 'Use a recovery code instead',
    'app.login.useOtp': 'Use the code from your authenticator app instead',
    'ra.input.password.toggle_visible': 'Hide password',
    'ra.input.password.toggle_hidden': 'Show password',
    'ra.action.toggle_theme': 'Toggle light/dark mode',
    'ra.action.close': 'Close',
    'app.notification.errorTitle': MSG.errorTitle,
    'app.notification.httpError': 'Error: %{message}',
    'app.notification.httpStatus': 'Error Code: %{status} Message: %{message}',
    'app.shared.msg.required': MSG.required,
    'app.shared.msg.minLength': MSG.minLength,
    'app.shared.msg.invalidLoginForm': MSG.invalidLoginForm,
    'app.shared.msg.invalidCredentials': MSG.invalidCredentials,
    'app.shared.msg.customerLoginRefused': MSG.customerLoginRefused,
    'app.shared.msg.inactiveUser': MSG.inactiveUser,
    'app.shared.msg.passwordChangeRequired': MSG.passwordChangeRequired,
    'app.shared.msg.internetError': MSG.internetError,
    'app.shared.msg.internalError': MSG.internalError,
    'app.shared.msg.databaseSwitching': MSG.databaseSwitching,
    'app.shared.msg.validationFailed': MSG.validationFailed,
    'app.shared.msg.xsrfRefused': MSG.xsrfRefused,
    'app.shared.msg.tooManyAttempts':
      'Too many failed login attempts. Try again in %{smart_count} minute. |||| Too many failed login attempts. Try again in %{smart_count} minutes.',
    'app.shared.msg.tooManyAddressAttempts':
      'Too many sign-in attempts from this network. Try again in %{smart_count} minute. |||| Too many sign-in attempts from this network. Try again in %{smart_count} minutes.',
    'app.shared.msg.tooManyPasswordAttempts':
      'Too many wrong passwords. Try again in %{smart_count} minute. |||| Too many wrong passwords. Try again in %{smart_count} minutes.',
    'app.shared.mfa.codeRequired': MFA_MSG.codeRequired,
    'app.shared.mfa.codeFormat': MFA_MSG.codeFormat,
    'app.shared.mfa.wrongCode': MFA_MSG.wrongCode,
    'app.shared.mfa.usedCode': MFA_MSG.usedCode,
    'app.shared.mfa.wrongRecoveryCode': MFA_MSG.wrongRecoveryCode,
  },
  hi: {
    'app.title': 'Tierdesk',
    'app.login.heading': 'फिर से स्वागत है!',
    'app.login.subtext': 'जारी रखने के लिए अपना विवरण दर्ज करें',
    'app.login.mobile': 'मोबाइल',
    'app.login.password': 'पासवर्ड',
    'app.login.submit': 'लॉगिन',
    'app.login.createAccount': 'खाता बनाएँ',
    'app.login.logoHome': 'Tierdesk मुखपृष्ठ',
    'app.login.otp': 'प्रमाणीकरण कोड',
    'app.login.recoveryCode': 'रिकवरी कोड',
    'app.login.recoveryHint': 'दो-चरणीय साइन-इन सेट करते समय रखे गए रिकवरी कोड में से एक दर्ज करें',
    'app.login.useRecoveryCode': 'इसके बजाय रिकवरी कोड का उपयोग करें',
    'app.login.useOtp': 'इसके बजाय ऑथेंटिकेटर ऐप का कोड उपयोग करें',
    'ra.input.password.toggle_visible': 'पासवर्ड छिपाएँ',
    'ra.input.password.toggle_hidden': 'पासवर्ड दिखाएँ',
    'ra.action.toggle_theme': 'हल्की/गहरी थीम बदलें',
    'ra.action.close': 'बंद करें',
    'app.notification.errorTitle': 'त्रुटि!!!',
    'app.notification.httpError': 'त्रुटि: %{message}',
    'app.notification.httpStatus': 'त्रुटि कोड: %{status} संदेश: %{message}',
    'app.shared.msg.required': 'यह फ़ील्ड आवश्यक है',
    'app.shared.msg.minLength': 'न्यूनतम लंबाई पूरी नहीं हुई',
    'app.shared.msg.invalidLoginForm': 'उपयोगकर्ता नाम या पासवर्ड अमान्य है',
    'app.shared.msg.invalidCredentials': 'उपयोगकर्ता नाम या पासवर्ड गलत है',
    'app.shared.msg.customerLoginRefused': 'ग्राहक पैनल पर लॉगिन नहीं कर सकते। कृपया ऐप डाउनलोड करें!',
    'app.shared.msg.inactiveUser': 'आपका खाता निष्क्रिय है। कृपया अपने व्यवस्थापक से संपर्क करें।',
    'app.shared.msg.passwordChangeRequired': 'पासवर्ड बदलना आवश्यक है',
    'app.shared.msg.internetError': 'इंटरनेट कनेक्शन त्रुटि',
    'app.shared.msg.internalError': 'हमारी ओर से कुछ गलत हो गया। कृपया फिर से प्रयास करें।',
    'app.shared.msg.databaseSwitching': 'डेटाबेस बदला जा रहा है; थोड़ी देर में फिर से प्रयास करें',
    'app.shared.msg.validationFailed': 'अमान्य डेटा!',
    'app.shared.msg.xsrfRefused': 'XSRF टोकन अमान्य है या नहीं है',
    'app.shared.msg.tooManyAttempts':
      'बहुत अधिक विफल लॉगिन प्रयास। %{smart_count} मिनट बाद फिर से प्रयास करें। |||| बहुत अधिक विफल लॉगिन प्रयास। %{smart_count} मिनट बाद फिर से प्रयास करें।',
    'app.shared.msg.tooManyAddressAttempts':
      'इस नेटवर्क से बहुत अधिक साइन-इन प्रयास। %{smart_count} मिनट बाद फिर से प्रयास करें। |||| इस नेटवर्क से बहुत अधिक साइन-इन प्रयास। %{smart_count} मिनट बाद फिर से प्रयास करें।',
    'app.shared.msg.tooManyPasswordAttempts':
      'बहुत अधिक गलत पासवर्ड। %{smart_count} मिनट बाद फिर से प्रयास करें। |||| बहुत अधिक गलत पासवर्ड। %{smart_count} मिनट बाद फिर से प्रयास करें।',
    'app.shared.mfa.codeRequired': 'अपने ऑथेंटिकेटर ऐप से कोड दर्ज करें',
    'app.shared.mfa.codeFormat': 'कोड वे 6 अंक हैं जो आपका ऑथेंटिकेटर ऐप दिखाता है',
    'app.shared.mfa.wrongCode': 'यह कोड सही नहीं है। आपका ऑथेंटिकेटर ऐप अभी जो कोड दिखा रहा है, वह दर्ज करें।',
    'app.shared.mfa.usedCode': 'यह कोड पहले ही उपयोग हो चुका है। आपका ऑथेंटिकेटर ऐप जो अगला कोड दिखाए, वह दर्ज करें।',
    'app.shared.mfa.wrongRecoveryCode': 'यह रिकवरी कोड सही नहीं है, या पहले ही उपयोग हो चुका है',
  },
};

/** A catalogue phrase with its `%{name}` arguments, and `smart_count`'s singular |||| plural (polyglot's rule). */
export function translateIn(locale: Locale, key: string, args: Record<string, unknown> = {}): string {
  const phrase = SIGNIN_TEXTS[locale][key] ?? SIGNIN_TEXTS.en[key] ?? key;
  const forms = phrase.split(' |||| ');
  const count = args.smart_count;
  const chosen = typeof count === 'number' && forms.length > 1 ? forms[count === 1 ? 0 : 1] : forms[0];
  return chosen.replace(/%\{(\w+)\}/g, (whole, name: string) => (name in args ? String(args[name]) : whole));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The server's sign-in answers (English) that have an entry here, and the throttling texts with their minutes. */
const KEY_OF_TEXT = new Map(
  Object.entries(SIGNIN_TEXTS.en)
    .filter(([key, text]) => key.startsWith('app.shared.') && !text.includes('%{'))
    .map(([key, text]) => [text, key]),
);
const THROTTLED = (['tooManyAttempts', 'tooManyAddressAttempts', 'tooManyPasswordAttempts'] as const).map(
  (name) => ({
    key: `app.shared.msg.${name}`,
    pattern: new RegExp(`^${escapeRegExp(MSG[name](7)).replace('7 minutes', '(\\d+) minutes?')}$`),
  }),
);

/**
 * What the entry shows for a text the server or the form says, in the chosen language, as the panel's notification
 * does (sharedMessages.ts `localise`): the seed's 'Error: <message>' keeps its form with the message translated; a
 * text it does not know is shown as sent.
 */
export function localiseIn(locale: Locale, text: string): string {
  const failure = text.match(/^Error: ([\s\S]*)$/);
  if (failure)
    return translateIn(locale, 'app.notification.httpError', { message: localiseIn(locale, failure[1]) });
  const status = text.match(/^Error Code: (\d+) Message: ([\s\S]*)$/);
  if (status)
    return translateIn(locale, 'app.notification.httpStatus', { status: status[1], message: status[2] });
  const key = KEY_OF_TEXT.get(text);
  if (key) return translateIn(locale, key);
  for (const { key, pattern } of THROTTLED) {
    const match = text.match(pattern);
    if (match) return translateIn(locale, key, { smart_count: Number(match[1]) });
  }
  return text;
}
