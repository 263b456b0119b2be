/**
 * Checks for the `format` values tools and elicitation forms commonly use. Each check is
 * written without backtracking-prone patterns, because the checked strings come from peers.
 */

/** A format check: true when the string has the format. */
export type FormatCheck = (value: string) => boolean;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/;
const IPV4_PART = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HOST_LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const WHITESPACE = /\s/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function isDate(value: string): boolean {
  const match = DATE.exec(value);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const lengths = [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return month >= 1 && month <= 12 && day >= 1 && day <= lengths[month - 1]!;
}

function isTime(value: string): boolean {
  const match = TIME.exec(value);
  if (match === null) return false;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  const second = Number(match[3]);
  const offsetHour = match[6] === undefined ? 0 : Number(match[6]);
  const offsetMinute = match[7] === undefined ? 0 : Number(match[7]);
  // Second 60 is a leap second, which RFC 3339 allows.
  return hour <= 23 && minute <= 59 && second <= 60 && offsetHour <= 23 && offsetMinute <= 59;
}

function isDateTime(value: string): boolean {
  const separator = value.search(/[Tt ]/);
  return separator === 10 && isDate(value.slice(0, 10)) && isTime(value.slice(11));
}

function isEmail(value: string): boolean {
  const at = value.lastIndexOf('@');
  if (at <= 0 || at === value.length - 1 || WHITESPACE.test(value)) return false;
  const domain = value.slice(at + 1);
  if (value.slice(0, at).includes('@')) return false;
  const dot = domain.indexOf('.');
  return dot > 0 && !domain.endsWith('.') && !domain.includes('..');
}

function isIpv4(value: string): boolean {
  const parts = value.split('.');
  return parts.length === 4 && parts.every((part) => IPV4_PART.test(part));
}

function isIpv6(value: string): boolean {
  if (!value.includes(':') || !/^[0-9a-fA-F:.]+$/.test(value)) return false;
  try {
    // The URL parser implements the full IPv6 grammar in every runtime mcpgen targets.
    return new URL(`http://[${value}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

function isHostname(value: string): boolean {
  if (value.length === 0 || value.length > 253) return false;
  const labels = value.endsWith('.') ? value.slice(0, -1).split('.') : value.split('.');
  return labels.every((label) => HOST_LABEL.test(label));
}

/** The formats checked by default; any other format name is accepted as an annotation. */
export const defaultFormats: Readonly<Record<string, FormatCheck>> = {
  date: isDate,
  time: isTime,
  'date-time': isDateTime,
  email: isEmail,
  uri: (value) => URI.test(value),
  uuid: (value) => UUID.test(value),
  ipv4: isIpv4,
  ipv6: isIpv6,
  hostname: isHostname,
};
