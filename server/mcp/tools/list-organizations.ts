import { getApiKeyContext } from "../../auth/account.service.ts";
import { defineTool } from "../tool.ts";

export const listOrganizationsTool = defineTool({
  name: "list_organizations",
  permission: "account",
  description: "The organizations this API key can act in. A Reprise key belongs to exactly one organization; use a key of another organization to work there.",
  input: {},
  readOnly: true,
  run: async (_args, { db, auth }) => {
    const { organization } = await getApiKeyContext(db, auth);
    const text = [
      "Organizations (1):",
      `- ${organization.name} (${organization.id}) [current]`,
      "A Reprise API key belongs to one organization: to switch, use a key created in the other organization.",
    ].join("\n");
    return { text, data: { organizations: [{ ...organization, current: true }] } };
  },
});
