/**
 * The language a question is asked in: the request's own `locale` when it is one we speak, else the script its
 * text is written in (Hebrew, Arabic and Cyrillic say which of our languages it is), else English. Latin-script
 * languages are not guessed from a prompt: a wrong guess would ask an English speaker in Portuguese.
 */
import { LOCALES, type Locale } from './messages.ts';

const SCRIPTS: readonly [RegExp, Locale][] = [
  [/\p{Script=Hebrew}/u, 'he'],
  [/\p{Script=Arabic}/u, 'ar'],
  [/\p{Script=Cyrillic}/u, 'ru'],
];

/** The supported language of a BCP 47 tag (`pt-BR` → `pt`), or undefined. */
export function supportedLocale(tag: string | undefined): Locale | undefined {
  const language = tag?.split('-')[0]?.toLowerCase();
  return LOCALES.find((locale) => locale === language);
}

/** The language to ask in, from an explicit tag or the person's own text. */
export function questionLocale(tag: string | undefined, text: string | undefined): Locale {
  const explicit = supportedLocale(tag);
  if (explicit) return explicit;
  for (const [script, locale] of SCRIPTS) if (text && script.test(text)) return locale;
  return 'en';
}
