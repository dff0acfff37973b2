// GET /sdk, /sdk/<language>/<file> and the Go module proxy under /go (docs/sdk-downloads.md): the SDKs of
// this server's version, public (no API key: they hold no data), built from sdks/<language>/ on first request.
import crypto from "node:crypto";
import { getEnv } from "../env.ts";
import { AppError } from "../errors.ts";
import { readClientInfo } from "../http/client-address.ts";
import { logger } from "../logger.ts";
import { errorResponse, json } from "../http/responses.ts";
import { artifactBytes, findArtifact, goArtifacts, sdkArtifacts, type TArtifact } from "./artifacts.ts";
import { decodeModulePath, goInfo, goModulePath, goVersion } from "./go-module.ts";
import { sdkInstall, type TSdkInstall } from "./install-commands.ts";
import { serverVersion } from "./sources.ts";

export type { TSdkInstall };

type TParams = { params: Promise<Record<string, string | string[]>> };

const requestIdOf = (request: Request) => request.headers.get("x-request-id") ?? crypto.randomUUID();

/** `http(s)://host` as the client addressed this server (docs/api/console.md, "Behind a proxy"). */
function originOf(headers: Headers, url: string): string {
  const client = readClientInfo(headers, url, getEnv().REPRISE_TRUST_PROXY);
  return `${client.secure ? "https" : "http"}://${client.host ?? new URL(url).host}`;
}

/**
 * The download addresses and install commands for the client of a page render (the setup page); null, logged,
 * when the SDKs' sources cannot be read (a deployment without sdks/), so the page still renders.
 */
export function sdkInstallFor(headers: Headers): TSdkInstall | null {
  try {
    return sdkInstall(originOf(headers, "http://localhost"));
  } catch (error) {
    logger.warn("the SDK downloads are unavailable", { error });
    return null;
  }
}

/** The catch-all's segments as one path ("a/b/c"); Next.js hands an array, a test may hand a string. */
async function joinedPath(context: TParams): Promise<string> {
  const value = (await context.params).path ?? [];
  return (Array.isArray(value) ? value : [value]).join("/");
}

function fileResponse(request: Request, artifact: TArtifact, bytes: Buffer): Response {
  const etag = `"${crypto.createHash("sha256").update(bytes).digest("base64url")}"`;
  const headers = { etag, "cache-control": "no-cache", "x-content-type-options": "nosniff" };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  const name = artifact.path.slice(artifact.path.lastIndexOf("/") + 1);
  return new Response(new Uint8Array(bytes), {
    headers: { ...headers, "content-type": artifact.contentType, "content-length": String(bytes.length), "content-disposition": `attachment; filename="${name}"` },
  });
}

/** GET /sdk: this server's version, its SDK files and the commands that install them. */
export async function getSdkIndex(request: Request): Promise<Response> {
  try {
    return json(sdkInstall(originOf(request.headers, request.url)));
  } catch (error) {
    return errorResponse(error, requestIdOf(request));
  }
}

/** GET /sdk/<language>/<file>: the npm tarball, the Python wheel and sdist, the Ruby gem. */
export async function getSdkFile(request: Request, context: TParams): Promise<Response> {
  try {
    const artifact = findArtifact(sdkArtifacts(), `/sdk/${await joinedPath(context)}`);
    return fileResponse(request, artifact, artifactBytes(artifact));
  } catch (error) {
    return errorResponse(error, requestIdOf(request));
  }
}

/**
 * GET /go/<module>/@v/list, /@v/<version>.info|.mod|.zip and /@latest: the Go module proxy protocol for the
 * Go SDK alone. Any other module or version is a 404, which tells the go command to try the next proxy.
 */
export async function getGoProxy(request: Request, context: TParams): Promise<Response> {
  try {
    const requested = await joinedPath(context);
    const m = /^(.+?)\/(@latest|@v\/(list|[^/]+\.(?:info|mod|zip)))$/.exec(requested);
    const module = goModulePath();
    const version = goVersion(serverVersion());
    if (!m || decodeModulePath(m[1]!) !== module) {
      throw new AppError("not_found", `This server's Go proxy serves only ${module} (${version}), not /go/${requested}.`);
    }
    const what = m[2]!;
    if (what === "@v/list") return new Response(`${version}\n`, { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache" } });
    if (what === "@latest" || what === `@v/${version}.info`) return json(goInfo(serverVersion()), { headers: { "cache-control": "no-cache" } });
    const artifact = findArtifact(goArtifacts(), `/go/${module}/${what}`);
    return fileResponse(request, artifact, artifactBytes(artifact));
  } catch (error) {
    return errorResponse(error, requestIdOf(request));
  }
}
