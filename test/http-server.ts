// Serves route handlers over real HTTP on a loopback port, for tests that drive a handler with a real
// client (the official MCP client, raw fetch with concurrency): Node request → web Request → handler
// → web Response streamed back, as Next.js does.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
export type Routes = Record<string, Partial<Record<"GET" | "POST" | "DELETE" | "PATCH" | "PUT", Handler>>>;

export interface ServedRoutes {
  url: string;
  close: () => Promise<void>;
}

export async function serveRoutes(routes: Routes): Promise<ServedRoutes> {
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
      const handler = routes[url.pathname]?.[req.method as "GET"];
      if (!handler) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "no route", code: "not_found" }));
        return;
      }
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const request = new Request(url, {
        method: req.method,
        headers,
        body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
        duplex: "half",
      } as RequestInit);
      const response = await handler(request, { params: Promise.resolve({}) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) Readable.fromWeb(response.body as never).pipe(res);
      else res.end();
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
