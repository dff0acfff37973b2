/** Version of this SDK, sent as `sdkVersion` in every payload and in the OTLP resource. */
export const SDK_VERSION = "0.1.0";

/** SDK origin name stored in `rawSpan.span_origin.name` (docs/sdk-transport.md, "Payloads": Origin). */
export const SDK_ORIGIN_NAME = "reprise.sdk.typescript";

/** Origin tag for spans and traces recorded by the wrappers (docs/sdk-transport.md, "Payloads": Origin). */
export const SDK_SOURCE = "typescript-sdk-function";

/** OTLP resource `service.name` of the private provider (docs/sdk-transport.md, "Payloads": Origin). */
export const SDK_SERVICE_NAME = "reprise-typescript-sdk";

/** OTLP instrumentation scope name of the carrier spans. */
export const SDK_SCOPE_NAME = "reprise";
