export { resolveConfig, DEFAULT_SERVICE_URL } from "./config.js";
export type { RepriseOptions, ResolvedConfig, TransportTuning, DeliveryMode, ConfigWarning } from "./config.js";
export type { RepriseLogger } from "./logger.js";
export { SDK_VERSION } from "./version.js";
