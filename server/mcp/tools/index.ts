// Every MCP tool the server offers. Adding a tool: write its file beside this one and add it here.
import type { ToolDefinition } from "../tool.ts";
import { addGradersToDatasetTool, removeGradersFromDatasetTool } from "./dataset-graders.ts";
import { addTracesToDatasetTool, removeTracesFromDatasetTool } from "./dataset-traces.ts";
import { getApiKeyContextTool } from "./get-api-key-context.ts";
import { getBitfabApiKeyTool } from "./get-bitfab-api-key.ts";
import { getDatabaseConnectionStatusTool } from "./get-database-connection-status.ts";
import { getGraderLabelsTool } from "./get-grader-labels.ts";
import { getInsightsTool } from "./get-insights.ts";
import { listAlertsTool } from "./list-alerts.ts";
import { getSpanFieldTool } from "./get-span-field.ts";
import { getTraceLabelsTool } from "./get-trace-labels.ts";
import { getTracesTool } from "./get-traces.ts";
import { listDatasetsTool } from "./list-datasets.ts";
import { listGradersTool } from "./list-graders.ts";
import { listOrganizationMembersTool } from "./list-organization-members.ts";
import { listOrganizationsTool } from "./list-organizations.ts";
import { listTraceFunctionsTool } from "./list-trace-functions.ts";
import { rerunGradersOnDatasetTool } from "./rerun-graders-on-dataset.ts";
import { saveAgentLabelsTool } from "./save-agent-labels.ts";
import { saveDatasetTool } from "./save-dataset.ts";
import { saveGraderTool } from "./save-grader.ts";
import { saveHumanLabelsTool } from "./save-human-labels.ts";
import { saveGraderLabelsTool } from "./save-grader-labels.ts";
import { searchTracesTool } from "./search-traces.ts";
import { getSimPlanTool } from "./get-sim-plan.ts";
import { saveSimPlanTool } from "./save-sim-plan.ts";
import { listExperimentsTool } from "./list-experiments.ts";
import { listExperimentTracesTool } from "./list-experiment-traces.ts";
import { getReplayStatusTool } from "./get-replay-status.ts";
import { unsupportedTools } from "./unsupported.ts";
import { getTraceAssertionsTool } from "./get-trace-assertions.ts";
import { saveTraceAssertionsTool } from "./save-trace-assertions.ts";
import { archiveTraceAssertionsTool } from "./archive-trace-assertions.ts";
import { deleteAssertionCategoryTool, getAssertionCategoryTool, listAssertionCategoriesTool, saveAssertionCategoryTool } from "./assertion-categories.ts";
import { generateTraceAssertionsTool } from "./generate-trace-assertions.ts";
import { generateLabelEvidenceTool } from "./generate-label-evidence.ts";
import { saveExperimentTool } from "./save-experiment.ts";
import { getExperimentTool } from "./get-experiment.ts";
import { getExperimentGroupTool, listExperimentGroupsTool, saveExperimentGroupTool } from "./experiment-groups.ts";
import {
  addGradersToExperimentGroupTool,
  addGradersToExperimentTool,
  removeGradersFromExperimentGroupTool,
  removeGradersFromExperimentTool,
} from "./experiment-graders.ts";
import { rerunGradersOnExperimentTool } from "./rerun-graders-on-experiment.ts";
import { deleteAssertionTool, deleteDatasetTool, deleteGraderTool, deleteTracesTool, listDeletedTool, restoreDeletedTool } from "./lifecycle.ts";

export const TOOLS = [
  // Account
  getApiKeyContextTool,
  listOrganizationsTool,
  listOrganizationMembersTool,
  getBitfabApiKeyTool,
  getDatabaseConnectionStatusTool,
  // Traces
  listTraceFunctionsTool,
  searchTracesTool,
  getTracesTool,
  getSpanFieldTool,
  getInsightsTool,
  listAlertsTool,
  // Verdicts
  getTraceLabelsTool,
  saveAgentLabelsTool,
  saveHumanLabelsTool,
  getGraderLabelsTool,
  saveGraderLabelsTool,
  // Graders and datasets
  listGradersTool,
  saveGraderTool,
  saveDatasetTool,
  listDatasetsTool,
  addTracesToDatasetTool,
  removeTracesFromDatasetTool,
  addGradersToDatasetTool,
  removeGradersFromDatasetTool,
  rerunGradersOnDatasetTool,
  // Sim plan
  getSimPlanTool,
  saveSimPlanTool,
  // Replays
  listExperimentsTool,
  listExperimentTracesTool,
  getReplayStatusTool,
  saveExperimentTool,
  getExperimentTool,
  saveExperimentGroupTool,
  listExperimentGroupsTool,
  getExperimentGroupTool,
  addGradersToExperimentTool,
  removeGradersFromExperimentTool,
  addGradersToExperimentGroupTool,
  removeGradersFromExperimentGroupTool,
  rerunGradersOnExperimentTool,
  // Assertions and their review
  getTraceAssertionsTool,
  saveTraceAssertionsTool,
  archiveTraceAssertionsTool,
  generateTraceAssertionsTool,
  generateLabelEvidenceTool,
  saveAssertionCategoryTool,
  listAssertionCategoriesTool,
  getAssertionCategoryTool,
  deleteAssertionCategoryTool,
  // Deleting data (docs/mcp.md, "Deleting data")
  deleteTracesTool,
  deleteDatasetTool,
  deleteGraderTool,
  deleteAssertionTool,
  listDeletedTool,
  restoreDeletedTool,
  // Features Reprise does not have: one sentence saying what to use instead
  ...unsupportedTools,
] as unknown as readonly ToolDefinition[];
