// Tools of the existing product for features Reprise does not have. They exist so that calling them gets
// one sentence saying so and what to use instead, never a protocol error.
import { unsupportedTool } from "../tool.ts";

const TEMPLATES =
  "Reprise has no span-rendering templates: spans are shown as recorded, so read them with get_traces and get_span_field instead.";
const TRACE_PLANS =
  "Reprise has no trace plans: instrument the app with the SDK (withTrace / withSpan) and choose which nodes capture content with get_sim_plan and save_sim_plan instead.";

export const unsupportedTools = [
  unsupportedTool("get_template_reference", [], TEMPLATES, "Reference of the span-rendering template language."),
  unsupportedTool("get_template", [], TEMPLATES, "The span-rendering template of a span type."),
  unsupportedTool("save_template", ["update_template"], TEMPLATES, "Save a span-rendering template."),
  unsupportedTool("save_trace_plan", ["create_trace_plan", "update_trace_plan"], TRACE_PLANS, "Save an instrumentation trace plan."),
  unsupportedTool("confirm_trace_plan", [], TRACE_PLANS, "Confirm an instrumentation trace plan."),
  unsupportedTool("get_trace_plan", [], TRACE_PLANS, "Read an instrumentation trace plan."),
  unsupportedTool("list_trace_plans", [], TRACE_PLANS, "List instrumentation trace plans."),
  unsupportedTool("cancel_trace_plan", [], TRACE_PLANS, "Cancel an instrumentation trace plan."),
  unsupportedTool("get_trace_function_diagnostics", [], "Reprise has no trace function diagnostics: use list_trace_functions and search_traces instead.", "Diagnostics of a trace function's instrumentation."),
  unsupportedTool("setup_bitfab", ["setup_simforge"], "Reprise needs no setup tool: set REPRISE_API_KEY (get_bitfab_api_key) and the server URL in the app's environment instead.", "Set up the product in a repository."),
];
