// A member's text inside a JSON object's text, found without parsing the object again. The write sends each
// span's raw document as the text that was sent (docs/architecture.md, "Ingestion and completion"); finding
// it here lets the database read it in a plain array that it lexes without unescaping any string, where
// `payload -> 'rawSpan'` made it lex every payload twice, unescaping each string character by character
// (bench/README.md, "Session 7").

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(text: string, i: number): number {
  while (isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The index just past the string that opens at `start` (a quote). */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) throw new Error("unterminated string");
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The index just past the value that starts at `start`. */
function valueEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) return stringEnd(text, start);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // A number, true, false or null: it runs to the next delimiter.
    let i = start;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c)) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i + 1;
    i++;
  }
  throw new Error("unterminated value");
}

/**
 * The text of the top-level member `name` of the JSON object `text` (valid JSON, already parsed once),
 * exactly as PostgreSQL's `json -> name` returns it: the value's own characters, and the last member of
 * that name when there are several. Undefined when `text` is not an object or has no such member.
 */
export function memberText(text: string, name: string): string | undefined {
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACE) return undefined;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return undefined;
  let found: string | undefined;
  for (;;) {
    const keyEnd = stringEnd(text, i);
    const key = text.slice(i + 1, keyEnd - 1);
    // A name written with escapes ("raw\u0053pan") is the same name once unescaped, for PostgreSQL too.
    const unescaped = key.includes("\\") ? (JSON.parse(text.slice(i, keyEnd)) as string) : key;
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) throw new Error("expected ':'");
    const start = skipSpace(text, i + 1);
    const end = valueEnd(text, start);
    if (unescaped === name) found = text.slice(start, end);
    i = skipSpace(text, end);
    if (text.charCodeAt(i) !== COMMA) return found;
    i = skipSpace(text, i + 1);
  }
}
