import { TOAST_MS } from '../../shared/rules';
import type { FieldError } from '../forms/schemaValidator';
import { LOCALES, type Locale, localiseIn, translateIn } from '../i18n/signin/texts';
import { secondStepAsked } from '../providers/signIn';
import './signin.css';

export type Theme = 'light' | 'dark';
export type { Locale };
export interface SignInValues {
  userName: string;
  password: string;
  /** The code from the authenticator app, once the server asked for the second step. */
  otp?: string;
  /** Or one of the recovery codes instead. */
  recoveryCode?: string;
}
type Field = keyof SignInValues;
/** Which code the second step takes: the app's, or a recovery code. */
type CodeField = 'otp' | 'recoveryCode';
type ToastType = 'error' | 'success';

export interface SignInFormOptions {
  locale: Locale;
  theme: Theme;
  /**
   * Signs in; a refusal rejects with the text to show (the seed's normalised HTTP failure), or with the refusal that
   * asks for the second step (providers/signIn.ts, secondStepAsked), upon which the form asks for the code.
   */
  onSubmit: (values: SignInValues) => Promise<void>;
  /** Keeps the reader's choice of language (react-admin's stored one). */
  onLocale: (locale: Locale) => void;
  /**
   * The host draws the whole page again when the language changes, this form with it (react-admin re-renders its
   * tree in the new language): the form then leaves its texts to that instead of repainting them first.
   */
  redrawnOnLocale?: boolean;
  onTheme: (theme: Theme) => void;
  /**
   * Where the form's toasts go (a catalogue key or a text the server said): inside the panel, react-admin's notify,
   * the panel's one toast area. Without it the form shows them itself, as the panel's toast looks.
   */
  notify?: (text: string, type: ToastType) => void;
  /** Follows the form's links (the logo, Create Account) without loading the page: the panel's router. */
  navigate?: (path: string) => void;
}

export interface SignInForm {
  /** Takes the form off the page (the panel takes over, or its page closes). */
  remove: () => void;
  /** A place under the strip above, for the host's notices (the panel's offline banner). */
  notices: HTMLElement;
}

type Validate = typeof import('./validator').validateSignIn;

/** An element with attributes, and children (elements or text). */
function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
/** A 24-px Material icon (the panel's icons), hidden from assistive technology: its button carries the name. */
function icon(path: string): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const shape = document.createElementNS(SVG_NS, 'path');
  shape.setAttribute('d', path);
  svg.append(shape);
  return svg;
}
const ICONS = {
  translate:
    'm12.87 15.07-2.54-2.51.03-.03c1.74-1.94 2.98-4.17 3.71-6.53H17V4h-7V2H8v2H1v1.99h11.17C11.5 7.92 10.44 9.75 9 11.35 8.07 10.32 7.3 9.19 6.69 8h-2c.73 1.63 1.73 3.17 2.98 4.56l-5.09 5.02L4 19l5-5 3.11 3.11zM18.5 10h-2L12 22h2l1.12-3h4.75L21 22h2zm-2.62 7 1.62-4.33L19.12 17z',
  expand: 'M16.59 8.59 12 13.17 7.41 8.59 6 10l6 6 6-6z',
  dark: 'M12 3c-4.97 0-9 4.03-9 9s4.03 9 9 9 9-4.03 9-9c0-.46-.04-.92-.1-1.36-.98 1.37-2.58 2.26-4.4 2.26-2.98 0-5.4-2.42-5.4-5.4 0-1.81.89-3.42 2.26-4.4-.44-.06-.9-.1-1.36-.1',
  light:
    'M12 7c-2.76 0-5 2.24-5 5s2.24 5 5 5 5-2.24 5-5-2.24-5-5-5M2 13h2c.55 0 1-.45 1-1s-.45-1-1-1H2c-.55 0-1 .45-1 1s.45 1 1 1m18 0h2c.55 0 1-.45 1-1s-.45-1-1-1h-2c-.55 0-1 .45-1 1s.45 1 1 1M11 2v2c0 .55.45 1 1 1s1-.45 1-1V2c0-.55-.45-1-1-1s-1 .45-1 1m0 18v2c0 .55.45 1 1 1s1-.45 1-1v-2c0-.55-.45-1-1-1s-1 .45-1 1',
  visibility:
    'M12 4.5C7 4.5 2.73 7.61 1 12c1.73 4.39 6 7.5 11 7.5s9.27-3.11 11-7.5c-1.73-4.39-6-7.5-11-7.5M12 17c-2.76 0-5-2.24-5-5s2.24-5 5-5 5 2.24 5 5-2.24 5-5 5m0-8c-1.66 0-3 1.34-3 3s1.34 3 3 3 3-1.34 3-3-1.34-3-3-3',
  visibilityOff:
    'M12 7c2.76 0 5 2.24 5 5 0 .65-.13 1.26-.36 1.83l2.92 2.92c1.51-1.26 2.7-2.89 3.43-4.75-1.73-4.39-6-7.5-11-7.5-1.4 0-2.74.25-3.98.7l2.16 2.16C10.74 7.13 11.35 7 12 7M2 4.27l2.28 2.28.46.46C3.08 8.3 1.78 10.02 1 12c1.73 4.39 6 7.5 11 7.5 1.55 0 3.03-.3 4.38-.84l.42.42L19.73 22 21 20.73 3.27 3zM7.53 9.8l1.55 1.55c-.05.21-.08.43-.08.65 0 1.66 1.34 3 3 3 .22 0 .44-.03.65-.08l1.55 1.55c-.67.33-1.41.53-2.2.53-2.76 0-5-2.24-5-5 0-.79.2-1.53.53-2.2m4.31-.78 3.15 3.15.02-.16c0-1.66-1.34-3-3-3z',
  close:
    'M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z',
};

/**
 * The sign-in page (seed sections 2 and 5), the one login form: drawn without React, react-admin or MUI, so the page's
 * first script shows it before the panel has arrived (src/web/entry.ts), and mounted by the panel's login page
 * (pages/Login.tsx) the same way. The language switch and theme toggle above (react-admin's stored choices), the
 * logo link, heading and subtext, Mobile and Password (required, with the asterisk; a show/hide toggle), Login, and
 * Create Account; the second step once the server asks for it. Its texts are i18n/signin's, its rules the login
 * schema's (validator.ts, loaded on the first key typed). Field messages show once a field is left (react-hook-form's
 * onTouched); an invalid submit marks them, focuses the first and toasts 'Username Or Password Invalid'; a refusal
 * shows in the red 'Error!!!' toast.
 */
export function drawSignIn(root: HTMLElement, options: SignInFormOptions): SignInForm {
  let { locale, theme } = options;
  const t = (key: string) => translateIn(locale, key);
  /** A catalogue key or a text the server or the schema said, in the chosen language. */
  const say = (text: string, args?: Record<string, unknown>) => localiseIn(locale, text, args);
  const fieldText = (error: FieldError) =>
    typeof error === 'string' ? say(error) : say(error.message, error.args);
  const values: Required<SignInValues> = { userName: '', password: '', otp: '', recoveryCode: '' };
  const touched: Record<Field, boolean> = {
    userName: false,
    password: false,
    otp: false,
    recoveryCode: false,
  };
  /** The second step's code field once the server asked for it (after the right password), else none. */
  let codeStep: CodeField | undefined;
  let submitting = false;
  let passwordShown = false;
  let validate: Validate | undefined;
  let validating: Promise<unknown> | undefined;
  let lastToast: { text: string; type: ToastType } | undefined;
  let toastTimer: ReturnType<typeof setTimeout> | undefined;

  // The strip above: language menu and theme toggle (as the panel's public pages have them).
  const languageName = el('span');
  const languageButton = el(
    'button',
    {
      type: 'button',
      class: 'sg-text-button',
      'aria-haspopup': 'true',
      'aria-controls': 'sg-language-menu',
      'aria-expanded': 'false',
    },
    icon(ICONS.translate),
    languageName,
    icon(ICONS.expand),
  );
  const languageItems = LOCALES.map(({ locale: value, name }) => {
    const item = el('li', { role: 'menuitem', tabindex: '-1', 'data-locale': value }, name);
    item.addEventListener('click', () => chooseLocale(value));
    return item;
  });
  const languageMenu = el(
    'ul',
    { id: 'sg-language-menu', role: 'menu', class: 'sg-menu', hidden: '' },
    ...languageItems,
  );
  const themeButton = el('button', { type: 'button', class: 'sg-icon-button' });
  const bar = el(
    'header',
    { class: 'sg-bar' },
    el('span', { class: 'sg-grow' }),
    el('span', { class: 'sg-language' }, languageButton, languageMenu),
    themeButton,
  );
  const notices = el('div');

  // The card.
  const logo = el('a', { href: '/', class: 'sg-logo' });
  const heading = el('h1', { class: 'sg-heading' });
  const subtext = el('p', { class: 'sg-subtext' });
  const field = (name: Field, type: string, autocomplete: string) => {
    const id = `sg-${name}`;
    const input = el('input', {
      id,
      name,
      type,
      autocomplete,
      'aria-invalid': 'false',
      'aria-describedby': `${id}-helper-text`,
      class: 'sg-input',
    });
    const labelText = el('span');
    const label = el(
      'label',
      { for: id, class: 'sg-label' },
      labelText,
      el('span', { 'aria-hidden': 'true' }, '\u2009*'),
    );
    const helper = el('p', { id: `${id}-helper-text`, class: 'sg-helper' });
    const box = el('div', { class: 'sg-field' }, label, el('div', { class: 'sg-control' }, input), helper);
    return { input, labelText, helper, box };
  };
  const user = field('userName', 'text', 'username');
  user.input.setAttribute('inputmode', 'tel');
  const pass = field('password', 'password', 'current-password');
  const toggle = el('button', { type: 'button', class: 'sg-icon-button sg-adornment' });
  pass.input.parentElement?.append(toggle);
  // The second step (shown once the server asks for it): the app's code, or a recovery code instead.
  const otp = field('otp', 'text', 'one-time-code');
  otp.input.setAttribute('inputmode', 'numeric');
  const recovery = field('recoveryCode', 'text', 'off');
  recovery.input.setAttribute('autocapitalize', 'none');
  recovery.input.setAttribute('spellcheck', 'false');
  const codeHint = el('p', { class: 'sg-hint', role: 'status' });
  const switchCode = el('button', { type: 'button', class: 'sg-link-button' });
  const codeBox = el('div', { class: 'sg-code', hidden: '' }, codeHint, otp.box, recovery.box, switchCode);
  const submitLabel = el('span');
  const submit = el(
    'button',
    { type: 'submit', class: 'sg-submit' },
    el('span', { class: 'sg-spinner', 'aria-hidden': 'true' }),
    submitLabel,
  );
  const form = el('form', { novalidate: '', class: 'sg-form' }, user.box, pass.box, codeBox, submit);
  const createAccount = el('a', { href: '/welcome' });
  const card = el(
    'main',
    { class: 'sg-card' },
    logo,
    heading,
    subtext,
    form,
    el('p', { class: 'sg-create' }, createAccount),
  );
  const toasts = el('div', { class: 'sg-toasts' });
  const page = el('div', { class: 'sg' }, bar, notices, el('div', { class: 'sg-center' }, card), toasts);

  const inputs = { userName: user.input, password: pass.input, otp: otp.input, recoveryCode: recovery.input };
  const helpers = {
    userName: user.helper,
    password: pass.helper,
    otp: otp.helper,
    recoveryCode: recovery.helper,
  };

  /** The fields the form sends now: the password's, and the second step's code once asked. */
  const activeFields = (): Field[] =>
    codeStep ? ['userName', 'password', codeStep] : ['userName', 'password'];
  /** The values sent: the code only in the second step, trimmed. */
  const sentValues = (): SignInValues => ({
    userName: values.userName.trim(),
    password: values.password,
    ...(codeStep ? { [codeStep]: values[codeStep].trim() } : {}),
  });

  /**
   * The validator, loaded once (the first key typed, a field left, or Login); the messages of the fields already
   * left show as it arrives. Should it fail to load, the server's answer is the check, and the next use tries again.
   */
  const loadValidator = () => {
    validating ??= import('./validator').then(
      (module) => {
        validate = module.validateSignIn;
        showErrors();
      },
      () => {
        validating = undefined;
      },
    );
    return validating;
  };

  /** Field messages of the touched fields (onTouched: once left, then on every change). */
  const showErrors = () => {
    const errors =
      validate?.({
        userName: values.userName,
        password: values.password,
        ...(codeStep ? { [codeStep]: values[codeStep] } : {}),
      }) ?? {};
    for (const name of ['userName', 'password', 'otp', 'recoveryCode'] as const) {
      const error = touched[name] ? errors[name] : undefined;
      helpers[name].textContent = error ? fieldText(error) : '';
      inputs[name].setAttribute('aria-invalid', String(!!error));
    }
    return errors;
  };

  const showToast = (text: string, type: ToastType) => {
    lastToast = { text, type };
    clearTimeout(toastTimer);
    const title =
      type === 'error' && /^Error( Code)?:/.test(text)
        ? el('div', { class: 'sg-toast-title' }, t('app.notification.errorTitle'))
        : '';
    const close = el(
      'button',
      { type: 'button', class: 'sg-icon-button', 'aria-label': t('ra.action.close') },
      icon(ICONS.close),
    );
    const toast = el(
      'div',
      { role: 'alert', class: `sg-toast sg-${type}` },
      el('div', { class: 'sg-toast-text' }, title, say(text)),
      close,
    );
    const hide = () => {
      toast.remove();
      lastToast = undefined;
    };
    close.addEventListener('click', hide);
    toasts.replaceChildren(toast);
    toastTimer = setTimeout(hide, TOAST_MS);
  };
  const notify = (text: string, type: ToastType) =>
    options.notify ? options.notify(text, type) : showToast(text, type);

  /** Every text in the chosen language (and the theme's icon), as when the language or theme changes. */
  const paint = () => {
    document.documentElement.lang = locale;
    page.dataset.theme = theme;
    languageName.textContent = LOCALES.find((l) => l.locale === locale)?.name ?? '';
    for (const item of languageItems)
      item.setAttribute('aria-current', String(item.dataset.locale === locale));
    themeButton.setAttribute('aria-label', t('ra.action.toggle_theme'));
    themeButton.replaceChildren(icon(theme === 'dark' ? ICONS.light : ICONS.dark));
    logo.textContent = t('app.title');
    logo.setAttribute('aria-label', t('app.login.logoHome'));
    heading.textContent = t('app.login.heading');
    subtext.textContent = t('app.login.subtext');
    user.labelText.textContent = t('app.login.mobile');
    pass.labelText.textContent = t('app.login.password');
    otp.labelText.textContent = t('app.login.otp');
    recovery.labelText.textContent = t('app.login.recoveryCode');
    codeHint.textContent = codeStep
      ? t(codeStep === 'otp' ? 'app.shared.mfa.codeRequired' : 'app.login.recoveryHint')
      : '';
    switchCode.textContent = t(
      codeStep === 'recoveryCode' ? 'app.login.useOtp' : 'app.login.useRecoveryCode',
    );
    toggle.setAttribute(
      'aria-label',
      t(passwordShown ? 'ra.input.password.toggle_visible' : 'ra.input.password.toggle_hidden'),
    );
    toggle.replaceChildren(icon(passwordShown ? ICONS.visibility : ICONS.visibilityOff));
    submitLabel.textContent = t('app.login.submit');
    createAccount.textContent = t('app.login.createAccount');
    showErrors();
    if (lastToast) showToast(lastToast.text, lastToast.type);
  };

  const closeMenu = (focusButton: boolean) => {
    languageMenu.hidden = true;
    languageButton.setAttribute('aria-expanded', 'false');
    if (focusButton) languageButton.focus();
  };
  const chooseLocale = (value: Locale) => {
    closeMenu(true);
    if (value === locale) return;
    options.onLocale(value);
    if (options.redrawnOnLocale) return;
    locale = value;
    paint();
  };
  languageButton.addEventListener('click', () => {
    if (!languageMenu.hidden) return closeMenu(false);
    languageMenu.hidden = false;
    languageButton.setAttribute('aria-expanded', 'true');
    (languageItems.find((item) => item.dataset.locale === locale) ?? languageItems[0]).focus();
  });
  languageMenu.addEventListener('keydown', (event) => {
    const at = languageItems.indexOf(document.activeElement as HTMLLIElement);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      languageItems[(at + step + languageItems.length) % languageItems.length].focus();
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      if (at >= 0) chooseLocale(languageItems[at].dataset.locale as Locale);
    } else if (event.key === 'Escape' || event.key === 'Tab') {
      if (event.key === 'Escape') event.preventDefault();
      closeMenu(event.key === 'Escape');
    }
  });
  languageMenu.addEventListener('focusout', (event) => {
    if (!languageMenu.contains(event.relatedTarget as Node | null) && event.relatedTarget !== languageButton)
      closeMenu(false);
  });

  themeButton.addEventListener('click', () => {
    theme = theme === 'dark' ? 'light' : 'dark';
    options.onTheme(theme);
    paint();
  });

  toggle.addEventListener('click', () => {
    passwordShown = !passwordShown;
    pass.input.type = passwordShown ? 'text' : 'password';
    paint();
  });

  for (const link of [logo, createAccount])
    link.addEventListener('click', (event) => {
      const { navigate } = options;
      if (!navigate || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
        return;
      event.preventDefault();
      navigate(link.getAttribute('href') ?? '/');
    });

  /** Shows the second step's field (the app's code, or a recovery code) and puts the focus in it. */
  const askForCode = (field: CodeField) => {
    codeStep = field;
    codeBox.hidden = false;
    otp.box.hidden = field !== 'otp';
    recovery.box.hidden = field !== 'recoveryCode';
    touched[field] = false;
    paint();
    inputs[field].focus();
  };
  switchCode.addEventListener('click', () => askForCode(codeStep === 'otp' ? 'recoveryCode' : 'otp'));

  for (const name of ['userName', 'password', 'otp', 'recoveryCode'] as const) {
    inputs[name].addEventListener('input', () => {
      values[name] = inputs[name].value;
      void loadValidator();
      showErrors();
    });
    inputs[name].addEventListener('blur', () => {
      touched[name] = true;
      void loadValidator();
      showErrors();
    });
  }

  const setBusy = (busy: boolean) => {
    submitting = busy;
    submit.disabled = busy;
    submit.classList.toggle('sg-busy', busy);
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (submitting) return;
    setBusy(true);
    const fields = activeFields();
    for (const name of fields) touched[name] = true;
    await loadValidator();
    const errors = showErrors();
    const firstInvalid = fields.find((name) => errors[name]);
    if (firstInvalid) {
      setBusy(false);
      inputs[firstInvalid].focus();
      notify('app.shared.msg.invalidLoginForm', 'error');
      return;
    }
    try {
      await options.onSubmit(sentValues());
    } catch (error) {
      setBusy(false);
      // The right password of a person with a second step: the form asks for the code, with no error.
      if (!codeStep && secondStepAsked(error)) askForCode('otp');
      else notify((error as Error).message, 'error');
    }
  });

  paint();
  root.replaceChildren(page);
  user.input.focus();
  return {
    remove: () => {
      clearTimeout(toastTimer);
      page.remove();
    },
    notices,
  };
}
