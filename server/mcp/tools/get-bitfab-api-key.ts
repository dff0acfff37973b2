import { defineTool } from "../tool.ts";

export const getBitfabApiKeyTool = defineTool({
  name: "get_bitfab_api_key",
  permission: "account",
  aliases: ["get_simforge_api_key"],
  description: "The API key this session authenticated with, and the environment variables an instrumented app reads it from.",
  input: {},
  readOnly: true,
  run: async (_args, { apiKey, baseUrl }) => {
    const text = [
      `API key: ${apiKey}`,
      "Put it in the instrumented app's environment:",
      `  REPRISE_API_KEY=${apiKey}`,
      `  REPRISE_URL=${baseUrl}`,
      "Bitfab/Simforge SDKs read BITFAB_API_KEY and BITFAB_SERVICE_URL instead; set those to the same values.",
    ].join("\n");
    return { text, data: { apiKey, serviceUrl: baseUrl } };
  },
});
