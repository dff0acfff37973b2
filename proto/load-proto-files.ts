// Loads our .proto files with protobufjs's parser. Used by the generator and by the test that checks the
// generated descriptor still matches them; the server itself never parses .proto text (see otlp.ts).
import path from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";

export const PROTO_DIR = path.dirname(fileURLToPath(import.meta.url));
export const PROTO_FILES = [
  "opentelemetry/proto/collector/trace/v1/trace_service.proto",
  "opentelemetry/proto/collector/logs/v1/logs_service.proto",
  "google/rpc/status.proto",
];

export function loadProtoFiles(): protobuf.Root {
  const root = new protobuf.Root();
  // Imports are relative to this folder, as protoc's -I proto would resolve them.
  root.resolvePath = (_origin, target) => path.join(PROTO_DIR, target);
  root.loadSync(PROTO_FILES);
  root.resolveAll();
  return root;
}
