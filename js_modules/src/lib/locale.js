// The app's language codes (spec: en, sp, gr, it, rs) are not all BCP 47 tags; Intl and
// <html lang> need real ones.
export const LANGUAGES = ['en', 'sp', 'gr', 'it', 'rs'];
const BCP47 = { en: 'en', sp: 'es', gr: 'de', it: 'it', rs: 'ru' };

export function toBcp47(code) {
  return BCP47[code] || code || undefined;
}

// A locale Intl accepts, or undefined for the browser's own.
export function intlLocale(code) {
  const tag = toBcp47(code);
  if (!tag) return undefined;
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}
