/** The API key every driver is given; the recorder accepts anything. */
export const API_KEY = "rp_conformance0123456789abcdefghijklmnopqrstuv";
/** The trace function key scenarios record under unless they say otherwise. */
export const KEY = "conformance";
