// Deeply nested JSON is refused before it reaches the database: PostgreSQL's JSON parser recurses (and
// PGlite's WebAssembly stack is smaller than a native one), so a payload nested thousands of levels deep
// could fail the whole batch instead of just its own carrier.

/** Nesting deeper than this rejects the payload; real payloads stay far below it (200 levels are fine). */
export const MAX_JSON_DEPTH = 1000;

/** Fewer than `max` brackets in all means no deeper nesting; indexOf makes this count nearly free. */
function fewOpeners(text: string, max: number): boolean {
  let count = 0;
  for (const opener of ["[", "{"]) {
    for (let i = text.indexOf(opener); i !== -1; i = text.indexOf(opener, i + 1)) if (++count > max) return false;
  }
  return true;
}

/** True when the JSON text nests arrays/objects deeper than `max`. */
export function exceedsJsonDepth(text: string, max: number = MAX_JSON_DEPTH): boolean {
  if (text.length <= 2 * max || fewOpeners(text, max)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
