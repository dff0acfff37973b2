import { findAlertRules } from "../../insight/alerts/rules.service.ts";
import { renderAlertRules } from "../render/alerts.ts";
import { defineTool } from "../tool.ts";

export const listAlertsTool = defineTool({
  permission: "read",
  name: "list_alerts",
  description: "The organization's alert rules (docs/alerts.md): each one's condition over the dashboard's figures, its trace function, and whether it is firing now, with its last value.",
  input: {},
  readOnly: true,
  run: async (_args, { db, auth }) => {
    const rules = await findAlertRules(db, auth.organizationId);
    return { text: renderAlertRules(rules), data: { rules } };
  },
});
