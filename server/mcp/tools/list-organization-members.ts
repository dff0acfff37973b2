import { findOrganizationMembers } from "../../auth/account.service.ts";
import { defineTool } from "../tool.ts";

export const listOrganizationMembersTool = defineTool({
  name: "list_organization_members",
  permission: "account",
  description: "The members of the key's organization: name and email.",
  input: {},
  readOnly: true,
  run: async (_args, { db, auth }) => {
    const members = await findOrganizationMembers(db, auth.organizationId);
    const lines = members.map((m) => `- ${m.name ?? m.email} <${m.email}>`);
    return { text: [`Members (${members.length}):`, ...lines].join("\n"), data: { members } };
  },
});
