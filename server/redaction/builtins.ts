// The built-in detectors (docs/operations.md, "Redaction"). Each is a global regular expression over string
// values; credit-card candidates are masked only when their digits pass the Luhn check, so order numbers and
// other long digit runs stay.
import type { TBuiltinRule } from "./redaction.schemas.ts";

export interface TDetector {
  /** The label counted in a span's redaction note and written into the mask: `[REDACTED:<label>]`. */
  label: string;
  re: RegExp;
  /** Decides a candidate match; absent means every match is masked. */
  accept?: (match: string) => boolean;
}

const SECRET_SHAPES = [
  String.raw`\bBearer\s+[A-Za-z0-9._~+/=-]{8,}`,
  String.raw`\b(?:sk|pk|rk)-(?:[A-Za-z0-9]+-)?[A-Za-z0-9_]{16,}`,
  String.raw`\brp_[A-Za-z0-9_-]{24,}`,
  String.raw`\bAKIA[0-9A-Z]{16}\b`,
  String.raw`\bgh[pousr]_[A-Za-z0-9]{30,}`,
  String.raw`\bxox[abprs]-[A-Za-z0-9-]{10,}`,
  String.raw`\bAIza[0-9A-Za-z_-]{35}`,
  String.raw`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`,
];

export function luhnValid(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, "");
  if (digits.length < 13 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export const BUILTIN_DETECTORS: Record<TBuiltinRule, TDetector> = {
  secrets: { label: "secret", re: new RegExp(SECRET_SHAPES.join("|"), "g") },
  emails: { label: "email", re: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g },
  // 13-19 digits, optionally grouped by single spaces or dashes, not inside a longer run of digits.
  creditCards: { label: "credit_card", re: /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g, accept: luhnValid },
  // +country forms and the common North-American groupings; ISO dates and UUIDs never take these shapes.
  phones: {
    label: "phone",
    re: /(?<![\w+.-])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)\s?|\d{3}[\s.-])\d{3}[\s.-]\d{4}(?![\w-])|(?<![\w+])\+\d{8,15}(?!\w)/g,
  },
};
