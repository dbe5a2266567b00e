/**
 * Each agent tool's description and input schema are written once, in package.json's
 * `languageModelTools` (where VS Code reads them without running anything); the MCP server offers
 * the same, with the output schemas of its structured content, written here. The input checks of
 * `tool-inputs.ts` say in one sentence what a schema refuses; a unit test holds the two together.
 */
import manifest from '../../../package.json';
import { TOOL_NAMES, type ToolName } from './tool-names';
import { ISSUE_TYPES } from '../model/types';

type JsonSchema = Readonly<Record<string, unknown>>;

export interface ToolDefinition {
  readonly name: ToolName;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema;
  /** A write: a client asks the user before it runs. */
  readonly destructive: boolean;
}

const text = { type: 'string' } as const;
const whole = { type: 'integer' } as const;
const flag = { type: 'boolean' } as const;

/** One finding in structured content: `path` and `line` (1-based) only where it is in today's code. */
const FINDING: JsonSchema = {
  type: 'object',
  properties: {
    id: whole,
    issueType: { type: 'string', enum: [...ISSUE_TYPES] },
    rule: text,
    severity: text,
    status: text,
    path: text,
    line: whole,
    codeChanged: flag,
    scannedPath: text,
    scannedLine: whole,
    notInThisCopy: flag,
    url: text,
    ref: text,
    isNew: flag,
    message: text,
    package: text,
    version: text,
    advisory: text,
  },
  required: ['id', 'issueType', 'rule', 'severity', 'status', 'isNew', 'message'],
};

const OUTPUTS: Record<ToolName, JsonSchema> = {
  findings: {
    type: 'object',
    properties: {
      project: text,
      ref: text,
      fallbackFrom: text,
      total: whole,
      findings: { type: 'array', items: FINDING },
      gaps: { type: 'array', items: text },
    },
    required: ['project', 'total', 'findings', 'gaps'],
  },
  finding: {
    type: 'object',
    properties: {
      finding: FINDING,
      story: { type: 'string', enum: ['read', 'notAvailable', 'unread'] },
      trace: {
        type: 'array',
        items: {
          type: 'object',
          properties: { number: whole, role: text, scannedPath: text, scannedLine: whole, path: text, line: whole, codeChanged: flag, notInThisCopy: flag },
          required: ['number', 'role'],
        },
      },
    },
    required: ['finding', 'story', 'trace'],
  },
  dependencies: {
    type: 'object',
    properties: {
      total: whole,
      unavailable: flag,
      rows: {
        type: 'array',
        items: { type: 'object', properties: { repository: text, lockfilePath: text, version: text, transitivity: text, inRange: flag, ecosystem: text } },
      },
    },
    required: ['total', 'rows'],
  },
  triage: { type: 'object', properties: { triaged: whole, ids: { type: 'array', items: whole } }, required: ['triaged', 'ids'] },
};

interface ManifestTool {
  readonly name: string;
  readonly modelDescription: string;
  readonly inputSchema: JsonSchema;
}

const declared = manifest.contributes.languageModelTools as readonly ManifestTool[];

export const TOOL_DEFINITIONS: readonly ToolDefinition[] = (Object.keys(TOOL_NAMES) as ToolName[]).map((name) => {
  const tool = declared.find((t) => t.name === TOOL_NAMES[name].lm);
  if (!tool) throw new Error(`package.json declares no tool ${TOOL_NAMES[name].lm}`);
  return { name, description: tool.modelDescription, inputSchema: tool.inputSchema, outputSchema: OUTPUTS[name], destructive: name === 'triage' };
});

/** The extension's version, which the MCP server gives as its own. */
export const TOOLS_VERSION: string = manifest.version;
