/**
 * How a text the server or a shared schema says is shown in the reader's language: recognised as a catalogue entry
 * (its key, and the arguments its phrase takes), then translated. Free of the catalogues and of react-admin, so the
 * sign-in form's small set of texts (signin/texts.ts) and the panel's whole set (sharedMessages.ts) localise the
 * same way.
 */

/** A text's catalogue entry: the key, and the arguments of its phrase. */
export interface Localised {
  key: string;
  args?: Record<string, unknown>;
}

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A server text with an argument inside: how to recognise it, and the phrase's arguments. */
export interface Template {
  key: string;
  pattern: RegExp;
  args: (match: RegExpMatchArray) => Record<string, unknown>;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A templated text recognised from its own function: called with markers for its arguments, the markers become
 * the pattern's groups, each named as given (whatever order the sentence puts them in).
 */
export function templateOf(
  key: string,
  // biome-ignore lint/suspicious/noExplicitAny: the texts' functions take strings or numbers; markers stand in
  text: (...args: any[]) => string,
  names: string[],
): Template {
  const markers = names.map((_, i) => String.fromCharCode(0xe000 + i));
  const sample = text(...markers);
  const order = markers
    .map((marker, i) => ({ name: names[i], at: sample.indexOf(marker) }))
    .sort((x, y) => x.at - y.at);
  let source = escapeRegExp(sample);
  for (const marker of markers) source = source.replace(marker, '(.*)');
  return {
    key,
    pattern: new RegExp(`^${source}$`),
    args: (m) => Object.fromEntries(order.map((o, i) => [o.name, m[i + 1]])),
  };
}

/** A text that says how many minutes to wait ('Try again in 7 minutes.'): the phrase's `smart_count`. */
export const minutesTemplate = (key: string, text: (minutes: number) => string): Template => ({
  key,
  pattern: new RegExp(`^${escapeRegExp(text(7)).replace('7 minutes', '(\\d+) minutes?')}$`),
  args: (m) => ({ smart_count: Number(m[1]) }),
});

/** The entry of a text: a fixed text by its words, a templated one by its pattern; undefined for one not known. */
export const recogniser =
  (keyOfText: ReadonlyMap<string, string>, templates: readonly Template[]) =>
  (text: string): Localised | undefined => {
    const key = keyOfText.get(text);
    if (key) return { key };
    for (const template of templates) {
      const match = text.match(template.pattern);
      if (match) return { key: template.key, args: template.args(match) };
    }
    return undefined;
  };

/**
 * What a notification or a field message shows, in the chosen language: a catalogue key is translated; a known text
 * through its entry; the seed's normalised HTTP failure ('Error: <message>', seed section 8) keeps its form with the
 * message inside translated; anything else as it is.
 */
export function localiseWith(
  recognise: (text: string) => Localised | undefined,
  text: string,
  translate: Translate,
  args?: Record<string, unknown>,
): string {
  if (/^(ra|app)\./.test(text)) return translate(text, { _: text, ...args });
  const failure = text.match(/^Error: ([\s\S]*)$/);
  if (failure)
    return translate('app.notification.httpError', {
      message: localiseWith(recognise, failure[1], translate),
    });
  const status = text.match(/^Error Code: (\d+) Message: ([\s\S]*)$/);
  if (status) return translate('app.notification.httpStatus', { status: status[1], message: status[2] });
  const known = recognise(text);
  return known ? translate(known.key, { _: text, ...known.args }) : text;
}
