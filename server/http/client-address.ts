// Who is talking to us: the client address, the host it addressed and whether it used https. Only
// REPRISE_TRUST_PROXY decides whether X-Forwarded-* are believed (docs/api/console.md, "Behind a proxy").
//
// Next.js hands route handlers no socket, and `next start` fills X-Forwarded-For/-Host/-Proto only when
// the client did not send them, so a client could name any address: the request gate (gate.ts, run by the server entry)
// writes the socket's address into PEER_ADDRESS_HEADER and, when proxies are not trusted, drops the
// client's X-Forwarded-* before Next.js sees the request.

/** Written by the request gate (gate.ts, run by the server entry) from the socket, over anything the client sent. */
export const PEER_ADDRESS_HEADER = "x-reprise-peer-address";
export interface TClientInfo {
  /** The client's address: the socket's, or the first X-Forwarded-For entry when a proxy is trusted. */
  ip: string;
  /** The host the browser addressed (X-Forwarded-Host only when a proxy is trusted). */
  host: string | null;
  /** True when the browser talks https to us (X-Forwarded-Proto only when a proxy is trusted). */
  secure: boolean;
}

export function readClientInfo(headers: Headers, url: string, trustProxy: boolean): TClientInfo {
  const first = (name: string) => headers.get(name)?.split(",")[0]?.trim() || null;
  const peer = first(PEER_ADDRESS_HEADER) ?? "unknown";
  const ownProto = new URL(url).protocol.replace(":", "");
  if (!trustProxy) return { ip: peer, host: headers.get("host"), secure: ownProto === "https" };
  return {
    ip: first("x-forwarded-for") ?? first("x-real-ip") ?? peer,
    host: first("x-forwarded-host") ?? headers.get("host"),
    secure: (first("x-forwarded-proto") ?? ownProto) === "https",
  };
}
