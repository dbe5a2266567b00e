/**
 * Findings as a SARIF 2.1.0 log, so they can leave the editor for any tool that reads the
 * standard (code-scanning dashboards, SARIF viewers). Pure: the caller gives the findings shown,
 * where each is today (drift mapping), the platform's link of each and the severity mapping of
 * Problems, so a finding is an error in the log exactly when it is one in Problems.
 */
import { findingLabel } from '../model/finding-names';
import { isHttpUrl } from '../model/links';
import type { Finding, SourceRange } from '../model/types';
import { DEFAULT_MAPPING, findingLevel, type PlanOptions, type SeverityMapping } from '../workspace/diagnostic-plan';
import { isMappedPlace, sourceRangeOf, type TodayPlace } from '../workspace/today-place';
import { kindOf } from '../model/finding-kinds';

export interface SarifExportInput {
  readonly findings: readonly Finding[];
  /** Where each finding is in today's code: reported there when drift moved it, else where it was scanned. */
  readonly placeOf?: (finding: Finding) => TodayPlace | undefined;
  /** The platform's page of the finding. */
  readonly findingUrl: (finding: Finding) => string | undefined;
  /** `appsecFindings.severityMapping`: the level Problems gives each severity (default: the setting's default). */
  readonly severityMapping?: SeverityMapping;
  /** How Problems levels unreachable supply-chain findings (`appsecFindings.unreachableAsInformation`). */
  readonly levels?: PlanOptions;
  readonly toolVersion: string;
  readonly projectName: string;
  readonly ref?: string;
  /** The branch asked for, when it was never scanned and `ref` (its primary branch) is shown instead. */
  readonly branchWithoutScan?: string;
  readonly repositoryUri?: string;
}

type Level = 'error' | 'warning' | 'note';
type Json = Record<string, unknown>;
export type SarifLog = Json & { readonly version: '2.1.0'; readonly runs: readonly Json[] };

/** SARIF has three levels to Problems' four: information and hint are both notes. */
const SARIF_LEVEL = { error: 'error', warning: 'warning', information: 'note', hint: 'note' } as const;
/** A rule's default level is the most serious of its results'. */
const LEVEL_WEIGHT: Readonly<Record<Level, number>> = { note: 0, warning: 1, error: 2 };

/** The SARIF level of a severity: the level Problems shows it at under `mapping`. */
export const levelOf = (finding: Pick<Finding, 'severity' | 'sca'>, mapping: SeverityMapping = DEFAULT_MAPPING, options: PlanOptions = {}): Level =>
  SARIF_LEVEL[findingLevel(finding, mapping, options)];

/** Where a finding is reported: today's place when drift moved it, else where it was scanned. */
function reportedPlace(finding: Finding, today: TodayPlace | undefined): SourceRange | undefined {
  return isMappedPlace(today) ? sourceRangeOf(today) : (finding.location ?? finding.sca?.usage);
}

/** The rule a finding reports under: a supply-chain finding's advisory, else its rule. */
function ruleIdOf(finding: Finding): string {
  return (finding.sca?.advisory ?? finding.ruleName) || 'unnamed-rule';
}

/** A repository-relative path as a relative URI reference: forward slashes, each segment encoded. */
export function relativeUri(path: string): string {
  return path
    .replace(/\\/g, '/')
    .replace(/^\.?\/+/, '')
    .split('/')
    .map(encodeURIComponent)
    .join('/');
}

function region(place: SourceRange): Json {
  const positive = (n: number | undefined): number | undefined => (n !== undefined && Number.isInteger(n) && n >= 1 ? n : undefined);
  const endLine = positive(place.endLine);
  return {
    startLine: positive(place.line) ?? 1,
    ...(positive(place.column) ? { startColumn: place.column } : {}),
    ...(endLine ? { endLine } : {}),
    ...(endLine && positive(place.endColumn) ? { endColumn: place.endColumn } : {}),
  };
}

function properties(finding: Finding): Json {
  const sca = finding.sca;
  const entries: [string, unknown][] = [
    ['issueType', finding.issueType],
    ['status', finding.status],
    ['severity', finding.severity],
    ['confidence', finding.confidence],
    ['package', sca?.package],
    ['version', sca?.version],
    ['ecosystem', sca?.ecosystem],
    ['reachability', sca?.reachability],
    ['fixVersions', sca?.fixVersions && sca.fixVersions.length > 0 ? sca.fixVersions : undefined],
    ['aiImpact', finding.ai?.impact],
    ['secretService', finding.secret?.service],
    ['secretValidation', finding.secret?.validation],
  ];
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined));
}

export function toSarifLog(input: SarifExportInput): SarifLog {
  // Each place is looked up once: the sort below reads it for every comparison.
  const places = new Map(input.findings.map((f) => [f, reportedPlace(f, input.placeOf?.(f))]));
  const placeOf = (f: Finding): SourceRange | undefined => places.get(f);
  const order = (f: Finding): string =>
    `${placeOf(f)?.filePath ?? '\uffff'}\u0000${String(placeOf(f)?.line ?? 0).padStart(9, '0')}\u0000${ruleIdOf(f)}\u0000${String(f.id).padStart(16, '0')}`;
  const findings = [...input.findings].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  const rules: Json[] = [];
  const ruleIndex = new Map<string, number>();
  const ruleLevel: Level[] = [];
  const results = findings.map((finding) => {
    const ruleId = ruleIdOf(finding);
    const level = levelOf(finding, input.severityMapping, input.levels);
    let index = ruleIndex.get(ruleId);
    if (index === undefined) {
      index = rules.length;
      ruleIndex.set(ruleId, index);
      ruleLevel.push(level);
      const help = kindOf(finding).helpUri(ruleId);
      rules.push({
        id: ruleId,
        name: findingLabel(finding).replace(/[^\w.-]+/g, '-') || 'rule',
        shortDescription: { text: findingLabel(finding) },
        ...(finding.message ? { fullDescription: { text: finding.message } } : {}),
        ...(help ? { helpUri: help } : {}),
      });
    } else if (LEVEL_WEIGHT[level] > LEVEL_WEIGHT[ruleLevel[index] ?? 'note']) ruleLevel[index] = level;
    const place = placeOf(finding);
    const url = input.findingUrl(finding);
    return {
      ruleId,
      ruleIndex: index,
      level,
      message: { text: finding.message || findingLabel(finding) },
      ...(place
        ? { locations: [{ physicalLocation: { artifactLocation: { uri: relativeUri(place.filePath), uriBaseId: '%SRCROOT%' }, region: region(place) } }] }
        : {}),
      partialFingerprints: {
        'appsecFindings/id/v1': `${finding.issueType}:${finding.id}`,
        ...(typeof finding.matchKey === 'number' ? { 'appsecFindings/matchKey/v1': String(finding.matchKey) } : {}),
      },
      ...(isHttpUrl(url) ? { hostedViewerUri: url } : {}),
      properties: properties(finding),
    };
  });
  rules.forEach((rule, i) => (rule.defaultConfiguration = { level: ruleLevel[i] }));
  const run: Json = {
    tool: { driver: { name: 'AppSec Findings', semanticVersion: input.toolVersion, informationUri: 'https://semgrep.dev', rules } },
    automationDetails: { id: `${input.projectName}/${input.ref ?? ''}` },
    originalUriBaseIds: { '%SRCROOT%': { description: { text: `The root of the repository ${input.projectName}.` } } },
    ...(isHttpUrl(input.repositoryUri)
      ? { versionControlProvenance: [{ repositoryUri: input.repositoryUri, ...(input.ref ? { branch: input.ref } : {}) }] }
      : {}),
    columnKind: 'unicodeCodePoints',
    results,
    ...(input.branchWithoutScan !== undefined ? { properties: { 'appsecFindings/branchWithoutScan': input.branchWithoutScan } } : {}),
  };
  return { $schema: 'https://json.schemastore.org/sarif-2.1.0.json', version: '2.1.0', runs: [run] };
}
