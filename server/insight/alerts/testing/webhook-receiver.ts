// A real webhook receiver for the alert tests: node:http on an ephemeral port that records what it received and
// answers as told (200, 500), or stops listening (connections refused) and comes back on the same port.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface TReceived {
  headers: http.IncomingHttpHeaders;
  body: string;
  status: number;
}

export interface TWebhookReceiver {
  url: string;
  received: TReceived[];
  /** The status the next requests get. */
  answer(status: number): void;
  /** Stops listening: a delivery is refused. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<TWebhookReceiver> {
  let status = 200;
  const received: TReceived[] = [];
  const handler: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), status });
      res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "nope");
    });
  };
  let server = http.createServer(handler);
  const listen = (port: number) => new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const stop = () => new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer: (s) => { status = s; },
    down: stop,
    up: async () => {
      server = http.createServer(handler);
      await listen(port);
    },
    close: async () => {
      if (server.listening) await stop();
    },
  };
}
