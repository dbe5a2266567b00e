/**
 * The agent tools' names, a contract (docs: automation): `lm` as VS Code's chat knows them
 * (package.json's `languageModelTools`), `mcp` as the MCP server offers them.
 */
export const TOOL_NAMES = {
  findings: { lm: 'appsecFindings_findings', mcp: 'findings' },
  finding: { lm: 'appsecFindings_finding', mcp: 'finding' },
  dependencies: { lm: 'appsecFindings_dependencies', mcp: 'dependencies' },
  triage: { lm: 'appsecFindings_triage', mcp: 'triage' },
} as const;

export type ToolName = keyof typeof TOOL_NAMES;
