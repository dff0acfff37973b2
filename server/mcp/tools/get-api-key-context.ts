import { getApiKeyContext } from "../../auth/account.service.ts";
import { defineTool } from "../tool.ts";

export const getApiKeyContextTool = defineTool({
  name: "get_api_key_context",
  permission: "account",
  description: "Which organization and user the API key acts as: everything the tools read and write belongs to that organization.",
  input: {},
  readOnly: true,
  run: async (_args, { db, auth }) => {
    const c = await getApiKeyContext(db, auth);
    const text = [
      `Organization: ${c.organization.name} (${c.organization.id})`,
      `User: ${c.user.email}${c.user.name ? ` (${c.user.name})` : ""} (${c.user.id})`,
      `API key: ${c.apiKey.prefix}${c.apiKey.name ? ` "${c.apiKey.name}"` : ""}`,
      "Every read and write of this key is scoped to this organization.",
    ].join("\n");
    return { text, data: { ...c } };
  },
});
