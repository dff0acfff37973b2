// The exact commands that install each SDK from one Reprise instance (docs/sdk-downloads.md), shown by the
// setup page and GET /sdk.
import { npmTarballName } from "./npm-package.ts";
import { goModulePath, goVersion } from "./go-module.ts";
import { pythonFileNames } from "./python-package.ts";
import { gemFileName } from "./ruby-gem.ts";
import { serverVersion } from "./sources.ts";

export interface TSdkInstall {
  version: string;
  files: { typescript: string; pythonWheel: string; pythonSdist: string; ruby: string };
  go: { proxy: string; module: string; version: string };
  commands: { typescript: string; python: string; ruby: string; go: string };
}

/** The download addresses and install commands for the instance at `origin` (`http://host:port`). */
export function sdkInstall(origin: string): TSdkInstall {
  const version = serverVersion();
  const python = pythonFileNames(version);
  const gem = gemFileName(version);
  const files = {
    typescript: `${origin}/sdk/typescript/${npmTarballName(version)}`,
    pythonWheel: `${origin}/sdk/python/${python.wheel}`,
    pythonSdist: `${origin}/sdk/python/${python.sdist}`,
    ruby: `${origin}/sdk/ruby/${gem}`,
  };
  const go = { proxy: `${origin}/go`, module: goModulePath(), version: goVersion(version) };
  return {
    version,
    files,
    go,
    commands: {
      typescript: `npm install ${files.typescript}`,
      python: `pip install ${files.pythonWheel}`,
      ruby: `curl -fsSLO ${files.ruby} && gem install --local ${gem}`,
      // The checksum database has never seen this module: GONOSUMDB keeps go from asking it.
      go: `GOPROXY=${go.proxy},direct GONOSUMDB=${go.module} go get ${go.module}@${go.version}`,
    },
  };
}
