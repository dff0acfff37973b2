import type { RepriseLogger } from "../../logger.js";
import type { Recorder } from "../../tracing/recorder.js";

/** What a framework integration needs from the client that created it: its recorder (and so its transport). */
export interface IntegrationHost {
  recorder: Recorder;
  logger: RepriseLogger;
  enabled: boolean;
  /** The client's `flushTraces`. */
  flush(timeoutMs: number): Promise<boolean>;
}

const hosts = new WeakMap<object, IntegrationHost>();

/** Called by the client's constructor, so integrations reuse its transport (docs/sdk-transport.md, rule 12). */
export function bindIntegrationHost(client: object, host: IntegrationHost): void {
  hosts.set(client, host);
}

/** The host of a client; throws a TypeError for anything that is not a `Reprise` client. */
export function integrationHostOf(client: object): IntegrationHost {
  const host = hosts.get(client);
  if (host === undefined) throw new TypeError("Pass a Reprise client (new Reprise({...})) to the framework integration.");
  return host;
}
