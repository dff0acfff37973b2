// A plain JSON value sent inside a console (tRPC) answer as JSON text. superjson, the console's transformer,
// walks every value of an answer looking for Dates, Maps and the like: a 10,000-span waterfall took ~200 ms
// of the server's thread that way, and ~20 ms as text (bench/README.md, "Session 9"). Only for values JSON
// keeps as they are (no Dates, no undefined); the type says what the text holds.

declare const holds: unique symbol;

/** JSON text of a `T`. */
export type TJsonText<T> = string & { readonly [holds]: T };

export const toJsonText = <T>(value: T): TJsonText<T> => JSON.stringify(value) as TJsonText<T>;

export const fromJsonText = <T>(text: TJsonText<T>): T => JSON.parse(text) as T;
