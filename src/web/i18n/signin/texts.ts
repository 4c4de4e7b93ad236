import { MSG } from '../../../shared/messages';
import { localiseWith, minutesTemplate, recogniser, type Template, templateOf } from '../localise';
import { signinEn } from './en';
import { signinHi } from './hi';

/**
 * The sign-in form's texts as the form reads them: a phrase in a language, with its arguments, and a server text
 * localised. The same keys and phrases as the panel's catalogues, which take them from en.ts/hi.ts beside this
 * module. Both languages are in the sign-in page's first script: the Hindi is small, and loading it apart cost a
 * Hindi reader's first visit a round trip before the form showed (docs/performance.md).
 */

export type Locale = 'en' | 'hi';

/** The panel's languages, with the name each is offered under (the sign-in form's menu and react-admin's). */
export const LOCALES: { locale: Locale; name: string }[] = [
  { locale: 'en', name: 'English' },
  { locale: 'hi', name: 'हिन्दी' },
];

/** Every key of a set of texts as polyglot flattens it ('app.login.heading'), with its phrase. */
const flatten = (texts: object, prefix = '', into = new Map<string, string>()) => {
  for (const [key, value] of Object.entries(texts)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') into.set(path, value);
    else flatten(value, path, into);
  }
  return into;
};

const TEXTS: Record<Locale, Map<string, string>> = { en: flatten(signinEn), hi: flatten(signinHi) };

/**
 * A phrase in a language, with its `%{name}` arguments and `smart_count`'s singular |||| plural (polyglot's rule for
 * both languages); `_` is the text shown for an unknown key.
 */
export function translateIn(locale: Locale, key: string, args: Record<string, unknown> = {}): string {
  const phrase = TEXTS[locale].get(key) ?? TEXTS.en.get(key);
  if (phrase === undefined) return typeof args._ === 'string' ? args._ : key;
  const forms = phrase.split(' |||| ');
  const count = args.smart_count;
  const chosen = typeof count === 'number' && forms.length > 1 ? forms[count === 1 ? 0 : 1] : forms[0];
  return chosen.replace(/%\{(\w+)\}/g, (whole, name: string) => (name in args ? String(args[name]) : whole));
}

/**
 * The server's texts with an argument inside that a sign-in can meet: the throttling's minutes, and a field's
 * upper bound. The panel's catalogue recognises them through these too (sharedMessages.ts).
 */
export const SIGNIN_TEMPLATES: Template[] = [
  ...(['tooManyAttempts', 'tooManyAddressAttempts', 'tooManyPasswordAttempts'] as const).map((name) =>
    minutesTemplate(`app.shared.msg.${name}`, MSG[name]),
  ),
  templateOf('app.shared.msg.atMost', MSG.atMost, ['max']),
];

/** The shared texts of the sign-in set (English) -> their keys. */
const recognise = recogniser(
  new Map(
    [...TEXTS.en]
      .filter(([key, text]) => key.startsWith('app.shared.') && !text.includes('%{'))
      .map(([key, text]) => [text, key]),
  ),
  SIGNIN_TEMPLATES,
);

/**
 * What the form shows for a catalogue key or a text the server or the login schema says, in the chosen language,
 * as the panel's notification shows it (sharedMessages.ts `localise`); a text it does not know is shown as sent.
 */
export const localiseIn = (locale: Locale, text: string, args?: Record<string, unknown>): string =>
  localiseWith(recognise, text, (key, options) => translateIn(locale, key, options), args);
