import { describe, expect, it } from 'vitest';
import {
  displayCui,
  formatCui,
  formatDate,
  formatDateTime,
  formatMoney,
  formatMoneyDecimal,
  formatNumber,
  ltr,
} from './format.ts';

describe('formats per language', () => {
  it('writes Spanish dates dd/mm/aaaa, also for a calendar date string', () => {
    expect(formatDate(new Date(2026, 0, 5), 'es')).toBe('05/01/2026');
    expect(formatDate('2026-12-31', 'es')).toBe('31/12/2026');
    expect(formatDateTime(new Date(2026, 1, 3, 14, 7), 'es')).toBe('03/02/2026 14:07');
    expect(formatDate(null, 'es')).toBe('');
    expect(formatDate('no es fecha', 'es')).toBe('');
  });

  it('writes other languages in their own order', () => {
    expect(formatDate('2026-12-31', 'en')).toBe('12/31/2026');
    expect(formatDate('2026-12-31', 'gr')).toBe('31.12.2026');
    expect(formatDate('2026-12-31', 'ch')).toBe('2026/12/31');
  });

  it('writes Spanish money as Q 1,234.56 from cents, the sign before the Q', () => {
    expect(formatMoney(123456, 'es')).toBe('Q 1,234.56');
    expect(formatMoney(5, 'es')).toBe('Q 0.05');
    expect(formatMoney(-100000, 'es')).toBe('-Q 1,000.00');
    expect(formatMoney(123456789012n, 'es')).toBe('Q 1,234,567,890.12');
    expect(formatMoney(null, 'es')).toBe('');
    expect(formatMoney(undefined, 'es')).toBe('');
  });

  it('writes decimal amounts from the API (quetzales as text) like cents', () => {
    expect(formatMoneyDecimal('1234.5', 'es')).toBe('Q 1,234.50');
    expect(formatMoneyDecimal('0.05', 'es')).toBe('Q 0.05');
    expect(formatMoneyDecimal(2500, 'es')).toBe('Q 2,500.00');
    expect(formatMoneyDecimal('1234567890.12', 'es')).toBe('Q 1,234,567,890.12');
    expect(formatMoneyDecimal(null, 'es')).toBe('');
    expect(formatMoneyDecimal('', 'es')).toBe('');
    expect(formatMoneyDecimal('abc', 'es')).toBe('');
  });

  it('writes date and time as dd/mm/aaaa hh:mm (24 h) in Spanish, empty for none', () => {
    expect(formatDateTime(new Date(2026, 11, 31, 23, 59), 'es')).toBe('31/12/2026 23:59');
    expect(formatDateTime(new Date(2026, 0, 1, 0, 5), 'es')).toBe('01/01/2026 00:05');
    expect(formatDateTime(null, 'es')).toBe('');
    expect(formatDateTime(undefined, 'es')).toBe('');
    expect(formatDateTime('nada', 'es')).toBe('');
  });

  it('writes money and numbers in the conventions of other languages', () => {
    expect(formatMoney(123456, 'en')).toBe('Q\u00a01,234.56');
    expect(formatMoney(123456, 'gr')).toBe('1.234,56\u00a0Q');
    expect(formatNumber(1234.5, { language: 'es', fractionDigits: 2 })).toBe('1,234.50');
    expect(formatNumber(1234.5, { language: 'fr', fractionDigits: 2 })).toMatch(/^1\s234,50$/);
  });

  it('shows a CUI as NNNN NNNNN NNNN', () => {
    expect(formatCui('1234567890101')).toBe('1234 56789 0101');
    expect(formatCui('1234 56789 0101')).toBe('1234 56789 0101');
    expect(formatCui('123')).toBe('123');
    expect(formatCui('1234-56789-0101')).toBe('1234 56789 0101');
    expect(formatCui(null)).toBe('');
    expect(formatCui('')).toBe('');
  });

  it('keeps a CUI or NIT left to right in Arabic (groups never reversed), unchanged in the other languages', () => {
    expect(displayCui('1234567890101', 'ar')).toBe('\u20661234 56789 0101\u2069');
    expect(ltr('576937-K', 'ar')).toBe('\u2066576937-K\u2069');
    for (const l of ['es', 'en', 'fr', 'it', 'gr', 'ru', 'ch']) {
      expect(displayCui('1234567890101', l)).toBe('1234 56789 0101');
      expect(ltr('576937-K', l)).toBe('576937-K');
    }
    expect(displayCui(null, 'ar')).toBe('');
    // A form input keeps the bare digits (no invisible marks typed into the field).
    expect(formatCui('1234567890101')).toBe('1234 56789 0101');
  });

  it('writes Arabic dates and money with their own direction marks (Latin digits, day first)', () => {
    expect(formatDate('2026-12-31', 'ar')).toBe('31\u200f/12\u200f/2026');
    expect(formatMoney(123456, 'ar')).toMatch(/^\u200f1,234\.56/);
  });
});
