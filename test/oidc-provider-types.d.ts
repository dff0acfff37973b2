// The little of oidc-provider's API the tests use (the package ships no types of its own).
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";
  interface Account {
    accountId: string;
    claims: () => Record<string, unknown> | Promise<Record<string, unknown>>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown> & { findAccount?: (ctx: unknown, id: string) => Account | Promise<Account> });
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
