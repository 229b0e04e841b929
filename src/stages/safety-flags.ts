/**
 * Personal data a person should see before a payload is built from it. Deliberately conservative: each
 * detector looks for a shape that is rarely anything else (a card number must pass the Luhn check).
 */
import type { SafetyFlag } from '../generated/contracts.ts';

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
// Phone numbers in the shapes people write them: +44 20 7946 0958, (555) 123-4567, 555-123-4567.
// Bare digit groups ("1024 768 512") are sizes far more often than phone numbers, so they do not count.
const PHONE = /(?:\+\d{1,3}(?:[\s.-]?\d{1,4}){3,5}\b)|(?:\(\d{3}\)\s?\d{3}-\d{4}\b)|(?:\b\d{3}-\d{3}-\d{4}\b)/;
const CARD_CANDIDATE = /\b(?:\d[ -]?){13,19}\b/g;
const US_SSN = /\b\d{3}-\d{2}-\d{4}\b/;

export function detectSafetyFlags(text: string): SafetyFlag[] {
  const flags: SafetyFlag[] = [];
  if (EMAIL.test(text)) flags.push({ code: 'email_address', message: 'The request contains an email address.' });
  if (PHONE.test(text)) flags.push({ code: 'phone_number', message: 'The request contains a phone number.' });
  if (containsCardNumber(text)) flags.push({ code: 'payment_card', message: 'The request contains a payment card number.' });
  if (US_SSN.test(text)) flags.push({ code: 'government_id', message: 'The request contains what looks like a social security number.' });
  return flags;
}

function containsCardNumber(text: string): boolean {
  for (const match of text.matchAll(CARD_CANDIDATE)) {
    const digits = match[0].replace(/\D/g, '');
    if (digits.length >= 13 && digits.length <= 19 && passesLuhn(digits)) return true;
  }
  return false;
}

function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
