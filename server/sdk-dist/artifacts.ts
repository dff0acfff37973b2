// Every artifact the server hands out, by address, built from sdks/<language>/ on first request and kept in
// memory: a few hundred kilobytes each, rebuilt on restart (the server's version only changes then).
import { AppError } from "../errors.ts";
import { buildGoZip, goModFile, goModulePath, goVersion } from "./go-module.ts";
import { buildNpmTarball, npmTarballName } from "./npm-package.ts";
import { buildSdist, buildWheel, pythonFileNames } from "./python-package.ts";
import { buildGem, gemFileName } from "./ruby-gem.ts";
import { serverVersion } from "./sources.ts";

export interface TArtifact {
  /** The address, from the server's root: `/sdk/python/reprise_sdk-0.1.0-py3-none-any.whl`. */
  path: string;
  contentType: string;
  build: () => Buffer;
}

/** The downloadable SDK files of this server's version. */
export function sdkArtifacts(): TArtifact[] {
  const version = serverVersion();
  const python = pythonFileNames(version);
  return [
    { path: `/sdk/typescript/${npmTarballName(version)}`, contentType: "application/gzip", build: buildNpmTarball },
    { path: `/sdk/python/${python.wheel}`, contentType: "application/zip", build: buildWheel },
    { path: `/sdk/python/${python.sdist}`, contentType: "application/gzip", build: buildSdist },
    { path: `/sdk/ruby/${gemFileName(version)}`, contentType: "application/octet-stream", build: buildGem },
  ];
}

/** The Go module's zip and go.mod, at their proxy addresses under /go. */
export function goArtifacts(): TArtifact[] {
  const version = serverVersion();
  const base = `/go/${goModulePath()}/@v/${goVersion(version)}`;
  return [
    { path: `${base}.zip`, contentType: "application/zip", build: () => buildGoZip(version) },
    { path: `${base}.mod`, contentType: "text/plain; charset=utf-8", build: goModFile },
  ];
}

const cache = new Map<string, Buffer>();

/** The bytes of an artifact, built once per process. */
export function artifactBytes(artifact: TArtifact): Buffer {
  let bytes = cache.get(artifact.path);
  if (!bytes) {
    bytes = artifact.build();
    cache.set(artifact.path, bytes);
  }
  return bytes;
}

/** The artifact at `path`, or a 404 naming what this server serves. */
export function findArtifact(artifacts: TArtifact[], requested: string): TArtifact {
  const found = artifacts.find((a) => a.path === requested);
  if (found) return found;
  throw new AppError("not_found", `No SDK file at ${requested}. This server (version ${serverVersion()}) serves ${artifacts.map((a) => a.path).join(", ")}; GET /sdk lists them with install commands.`);
}
