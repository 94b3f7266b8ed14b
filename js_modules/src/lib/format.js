// Cell formatters of the data grid (spec section 9: money, bytes), built once per locale.
import { intlLocale } from './locale.js';

const DECIMAL = /^-?\d+(\.\d+)?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const BYTE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];
// Types whose values are figures: right-aligned, and sorted largest first on the first click (dates latest first).
export const NUMERIC_TYPES = new Set(['number', 'money', 'bytes', 'percent']);
export const sortsDescendingFirst = (type) => NUMERIC_TYPES.has(type) || type === 'date' || type === 'day';
export const VARIANTS = new Set([
  'primary', 'secondary', 'success', 'danger', 'warning', 'info', 'light', 'dark',
]);

// Numbers may arrive as JSON numbers or as decimal strings (exact money from Python Decimals).
export function toNumber(value) {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && DECIMAL.test(value.trim())) return Number(value);
  return NaN;
}

export function toTime(value) {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || value === '') return NaN;
  return DATE_ONLY.test(value) ? Date.parse(`${value}T00:00:00Z`) : Date.parse(value);
}

export function badgeOf(value) {
  if (value && typeof value === 'object') {
    const variant = VARIANTS.has(value.variant) ? value.variant : 'secondary';
    return { text: String(value.text ?? ''), variant };
  }
  return { text: value == null ? '' : String(value), variant: 'secondary' };
}

export function makeFormatters(locale) {
  const loc = intlLocale(locale);
  const number = new Intl.NumberFormat(loc, { maximumFractionDigits: 3 });
  const money = new Intl.NumberFormat(loc, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const bytes = new Intl.NumberFormat(loc, { maximumFractionDigits: 2 });
  const percent = new Intl.NumberFormat(loc, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const dateTime = new Intl.DateTimeFormat(loc, { dateStyle: 'medium', timeStyle: 'short' });
  const dateOnly = new Intl.DateTimeFormat(loc, { dateStyle: 'medium', timeZone: 'UTC' });
  const localDay = new Intl.DateTimeFormat(loc, { dateStyle: 'medium' });
  const collator = new Intl.Collator(loc, { numeric: true, sensitivity: 'base' });

  // Intl.NumberFormat formats decimal strings exactly, so money strings keep their cents.
  const exact = (value) => (typeof value === 'string' ? value.trim() : value);

  const formatters = {
    text: (value) => (value == null ? '' : String(value)),
    number: (value) => {
      const n = toNumber(value);
      return Number.isNaN(n) ? formatters.text(value) : number.format(exact(value));
    },
    // "$" + two decimals, minus sign first for negatives: -$1,234.50
    money: (value) => {
      const n = toNumber(value);
      if (Number.isNaN(n)) return formatters.text(value);
      const raw = exact(value);
      const negative = n < 0 && Math.abs(n) >= 0.005;
      const abs = typeof raw === 'string' ? raw.replace(/^-/, '') : Math.abs(raw);
      return `${negative ? '-' : ''}$${money.format(abs)}`;
    },
    // A ratio already in percent (CTR 0.91 means 0.91 %): two decimals and the sign.
    percent: (value) => {
      const n = toNumber(value);
      return Number.isNaN(n) ? formatters.text(value) : `${percent.format(n)}%`;
    },
    // Browser time zone; a date-only ISO string is a calendar date, shown as is.
    date: (value) => {
      const t = toTime(value);
      if (Number.isNaN(t)) return formatters.text(value);
      return (typeof value === 'string' && DATE_ONLY.test(value) ? dateOnly : dateTime).format(t);
    },
    // The calendar day of a timestamp in the browser's time zone, for columns where the hour is noise.
    day: (value) => {
      const t = toTime(value);
      if (Number.isNaN(t)) return formatters.text(value);
      return (typeof value === 'string' && DATE_ONLY.test(value) ? dateOnly : localDay).format(t);
    },
    badge: (value) => badgeOf(value).text,
    // 1024 per step, at most 2 decimals: 0 Bytes, 512 Bytes, 1.5 KB, 2.25 GB, -1.5 KB. A size that
    // rounds up to the next step takes it (1,048,575 -> 1 MB), as app/i18n/formatters.file_size does.
    bytes: (value) => {
      const n = toNumber(value);
      if (Number.isNaN(n)) return formatters.text(value);
      if (n === 0) return '0 Bytes';
      const sign = n < 0 ? '-' : '';
      let scaled = Math.abs(n);
      let i = 0;
      while (i < BYTE_UNITS.length - 1 && Math.round(scaled * 100) / 100 >= 1024) {
        scaled /= 1024;
        i += 1;
      }
      return `${sign}${bytes.format(scaled)} ${BYTE_UNITS[i]}`;
    },
  };
  const cell = (type, value) => (Object.hasOwn(formatters, type) ? formatters[type] : formatters.text)(value);
  return { cell, collator, count: (n) => number.format(n) };
}

// Ascending comparators for TanStack sorting; missing values are sorted last by the table.
// Parsed sort keys are cached per row (rows are stable objects within one row model).
export function makeComparator(type, collator) {
  const keyed = (toKey, compare) => {
    const cache = new WeakMap();
    const keyOf = (row, id) => {
      let key = cache.get(row);
      if (key === undefined) {
        key = toKey(row.getValue(id));
        cache.set(row, key);
      }
      return key;
    };
    return (rowA, rowB, id) => compare(keyOf(rowA, id), keyOf(rowB, id));
  };
  const byNumber = (a, b) => {
    if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1;
    if (Number.isNaN(b)) return -1;
    return a - b;
  };
  switch (type) {
    case 'number':
    case 'money':
    case 'bytes':
      return keyed(toNumber, byNumber);
    case 'date':
    case 'day':
      return keyed(toTime, byNumber);
    case 'badge':
      return keyed((value) => badgeOf(value).text, collator.compare);
    default:
      return keyed((value) => String(value), collator.compare);
  }
}
