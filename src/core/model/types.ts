/**
 * Domain types: what the rest of the extension works with. Decoded from wire types by the
 * tolerant readers in `decode*.ts`. Enumerations are open (`Known | (string & {})`) because the
 * service grows them: an unknown value is kept and shown, never dropped.
 */

/** An open enumeration: the known values for completion, any other string kept as it came. */
export type Open<T extends string> = T | (string & {});

export type IssueType = 'sast' | 'sca' | 'secrets';
/** Every kind of finding a project has, in the order the views list them. */
export const ISSUE_TYPES: readonly IssueType[] = ['sast', 'sca', 'secrets'];
/**
 * What the findings list takes as `issue_type`. AI code findings (`ai_sast`) are asked for
 * apart and kept as code findings marked {@link Finding.ai}; secrets have their own endpoint.
 */
export type ListIssueType = 'sast' | 'sca' | 'ai_sast';
export type Severity = Open<'low' | 'medium' | 'high' | 'critical'>;
export type Confidence = Open<'low' | 'medium' | 'high'>;
export type FindingStatus = Open<'open' | 'fixed' | 'ignored' | 'reviewing' | 'fixing' | 'provisionally_ignored'>;
export type TriageReason = Open<'acceptable_risk' | 'false_positive' | 'no_time' | 'no_triage_reason' | 'duplicate'>;
export type Reachability = Open<'reachable' | 'always_reachable' | 'conditionally_reachable' | 'unreachable' | 'unknown'>;
export type Transitivity = Open<'direct' | 'transitive' | 'unknown'>;
export type PolicyMode = Open<'MODE_MONITOR' | 'MODE_COMMENT' | 'MODE_BLOCK' | 'MODE_DISABLED'>;
export type AutotriageVerdict = Open<'true_positive' | 'false_positive'>;

/** 1-based, as the scanner reports. `endLine`/`endColumn` absent when the service omits them. */
export interface SourceRange {
  readonly filePath: string;
  readonly line: number;
  readonly column?: number;
  readonly endLine?: number;
  readonly endColumn?: number;
}

export interface Deployment {
  /** Kept as text: ids of 15+ digits exist and must not lose precision. */
  readonly id: string;
  readonly name: string;
  readonly slug: string;
}

export interface Project {
  readonly id: number;
  readonly name: string;
  readonly tags: readonly string[];
  readonly createdAt?: Date;
  readonly defaultBranch?: string;
  readonly primaryBranch?: string;
  readonly latestScanAt?: Date;
  readonly url?: string;
  /** Present only from the single-project and tag endpoints. */
  readonly managedScanConfig?: { readonly diffScanEnabled?: boolean; readonly fullScanEnabled?: boolean };
}

/**
 * What a view or a diagnostic needs of a finding, kept compact: a sync may hold 100 000 of them
 * (budget ≤ 600 bytes each), so repeated strings are interned by the decoder and the long tail of
 * fields lives in {@link FindingDetail}, loaded when a finding is opened.
 */
export interface Finding {
  readonly issueType: IssueType;
  readonly id: number;
  readonly ruleName: string;
  /** The rule message (`rule_message`, else `rule.message`); empty when the service sent none. */
  readonly message: string;
  readonly severity: Severity;
  readonly confidence?: Confidence;
  readonly status: FindingStatus;
  readonly ref?: string;
  readonly repositoryName?: string;
  /** Absent when the service sent no usable location. */
  readonly location?: SourceRange;
  readonly lineOfCodeUrl?: string;
  /** Epoch milliseconds: a Date on each of 50 000 findings held about 100 bytes more per finding. */
  readonly relevantSince?: number;
  readonly triageReason?: TriageReason;
  /**
   * `match_based_id` as a number (`match-key.ts`): equal on every branch that has this finding,
   * which is how a finding new on a branch is told from one its primary branch has too.
   */
  readonly matchKey?: number;
  /** The triage note (`triage_comment`), when one was written. */
  readonly triageComment?: string;
  /** The ticket linked to the finding (`external_ticket`), when there is one. */
  readonly ticket?: TicketLink;
  /** Code findings: `sourcing_policy`. */
  readonly policy?: { readonly id: number; readonly name: string; readonly slug: string };
  /** Supply-chain findings only. */
  readonly sca?: ScaFacts;
  /** Code findings of the AI-powered analysis (`issue_type=ai_sast`) only. */
  readonly ai?: AiFacts;
  /** Secrets findings only. */
  readonly secret?: SecretFacts;
}

export interface AiFacts {
  /** `ai_impact`: the likely impact if exploited, in the platform's words. */
  readonly impact?: string;
}

/** Whether the secret was tried against its service (the platform never sends the secret itself). */
export type SecretValidation = Open<'confirmed_valid' | 'confirmed_invalid' | 'validation_error' | 'no_validator'>;

export interface SecretFacts {
  /** The service the secret belongs to (`type`: AWS, GitHub, …). */
  readonly service: string;
  readonly validation: SecretValidation;
}

export interface ScaFacts {
  readonly advisory?: string;
  readonly package?: string;
  readonly version?: string;
  readonly ecosystem?: string;
  readonly transitivity?: Transitivity;
  readonly reachability?: Reachability;
  readonly isMalicious?: boolean;
  /** Versions that fix it, from `fix_recommendations`. */
  readonly fixVersions?: readonly string[];
  readonly lockfileLineUrl?: string;
  /** 1-based line parsed from `#L<n>` of `lockfile_line_url`. */
  readonly lockfileLine?: number;
  /** Where the vulnerable code is used, when the scanner found a usage. */
  readonly usage?: SourceRange;
}

/** A finding's ticket as the views show it: its key in the tracker and its link. */
export interface TicketLink {
  readonly slug?: string;
  readonly url?: string;
}

/** What triage can set (`new_triage_state`); `reopened` puts a finding back to open. */
export type TriageState = 'ignored' | 'reviewing' | 'fixing' | 'reopened';

/** One triage request: a state and/or a note for findings of one issue type (at most 3 000 ids). */
export interface TriageRequest {
  readonly issueType: IssueType;
  readonly ids: readonly number[];
  readonly state?: TriageState;
  /** Only with `state: 'ignored'`. */
  readonly reason?: TriageReason;
  /** At most 3 000 characters. */
  readonly note?: string;
}

/** The platform's answer: it also triages the same finding on other branches, so more ids may come back. */
export interface TriageResult {
  readonly triaged: number;
  readonly triagedIds: readonly number[];
}

/** One Jira-ticket request (at most 20 ids; the platform groups findings of a rule and repository by default). */
export interface TicketRequest {
  readonly issueType: IssueType;
  readonly ids: readonly number[];
  readonly groupIssues?: boolean;
  readonly jiraProjectId?: string;
}

/** What became of each finding of a ticket request. */
export interface TicketResult {
  readonly succeeded: readonly { readonly ticketId?: string; readonly url?: string; readonly slug?: string; readonly ids: readonly number[] }[];
  readonly failed: readonly { readonly error: string; readonly ids: readonly number[] }[];
  readonly skipped: readonly { readonly reason: string; readonly ids: readonly number[] }[];
}

/** An existing ticket recorded on findings (a finding linked elsewhere gets this one). */
export interface TicketLinkResult {
  readonly ticketId?: string;
  readonly url?: string;
  readonly slug?: string;
  readonly linkedIds: readonly number[];
  readonly replacedIds: readonly number[];
}

/** A ticket linked to a finding (`external_ticket`; the spec spells its keys in camelCase). */
export interface ExternalTicket {
  readonly id?: number;
  /** The ticket's key in the tracker, e.g. `SEC-42`. */
  readonly slug?: string;
  readonly url?: string;
  readonly linkedIssueIds: readonly number[];
}

/** A pull-request review comment the platform left for a finding. */
export interface ReviewComment {
  readonly discussionId?: string;
  readonly noteId?: number;
}

/** The long tail of a finding, for a detail view or tooltip. */
export interface FindingDetail extends Finding {
  readonly syntacticId?: string;
  readonly matchBasedId?: string;
  readonly categories: readonly string[];
  readonly state?: string;
  readonly triageState?: string;
  readonly triageComment?: string;
  readonly triagedAt?: Date;
  readonly createdAt?: Date;
  readonly stateUpdatedAt?: Date;
  readonly firstSeenScanId?: number;
  readonly repositoryUrl?: string;
  readonly rule?: {
    readonly name?: string;
    readonly message?: string;
    readonly category?: string;
    readonly confidence?: string;
    readonly cweNames: readonly string[];
    readonly owaspNames: readonly string[];
    readonly subcategories: readonly string[];
    readonly vulnerabilityClasses: readonly string[];
  };
  readonly externalTicket?: ExternalTicket;
  readonly reviewComments: readonly ReviewComment[];
  readonly clickToFixPrUrls: readonly string[];
  /** One-click-fix attempts that failed: when, and the platform's reason. */
  readonly clickToFixFailures: readonly { readonly createdAt?: Date; readonly reason?: string }[];
  readonly assistant?: {
    readonly autofixCode?: string;
    readonly autofixExplanation?: string;
    readonly autotriageVerdict?: AutotriageVerdict;
    readonly autotriageReason?: string;
    readonly componentRisk?: string;
    readonly componentTag?: string;
    readonly guidanceSummary?: string;
    readonly guidanceInstructions?: string;
    readonly ruleExplanationSummary?: string;
  };
  readonly reachableCondition?: string;
  readonly epss?: { readonly score?: number; readonly percentile?: number };
}

export interface Policy {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  readonly isDefault: boolean;
  readonly productType?: string;
}

export interface PolicyRule {
  readonly id: string;
  /** Dotted rule identifier. */
  readonly path: string;
  readonly mode: PolicyMode;
  readonly severity?: string;
  readonly category?: string;
  readonly confidence?: string;
  readonly source?: string;
  readonly languages: readonly string[];
  readonly cweCategories: readonly string[];
  readonly owaspCategories: readonly string[];
  readonly url?: string;
  readonly lastChangeAt?: Date;
  readonly lastChangeBy?: string;
}

export type SbomOutputFormat = 'SBOM_OUTPUT_FORMAT_JSON' | 'SBOM_OUTPUT_FORMAT_CYCLONEDX';

export const SBOM_COMPONENT_TYPES = [
  'APPLICATION', 'FRAMEWORK', 'LIBRARY', 'CONTAINER', 'PLATFORM', 'OPERATING_SYSTEM',
  'DEVICE', 'DEVICE_DRIVER', 'FIRMWARE', 'FILE', 'MACHINE_LEARNING_MODEL', 'DATA',
] as const;
export type SbomComponentType = (typeof SBOM_COMPONENT_TYPES)[number];
export const SBOM_COMPONENT_TYPE_PREFIX = 'SBOM_METADATA_COMPONENT_TYPE_CYCLONE_DX_V15_';
/** CycloneDX versions the real service offers (docs/platform-api.md). */
export const CYCLONEDX_VERSIONS = ['1.4', '1.5', '1.6', '1.7'] as const;

export interface SbomExportRequest {
  readonly repositoryId: number;
  readonly ref: string;
  readonly outputFormat: SbomOutputFormat;
  readonly cycloneDxVersion: string;
  readonly componentType: SbomComponentType;
  readonly supplier?: {
    readonly name?: string;
    readonly url?: string;
    readonly contact?: { readonly name?: string; readonly email?: string; readonly phone?: string };
  };
}

export type SbomExportState = Open<'SBOM_EXPORT_STATUS_IN_PROGRESS' | 'SBOM_EXPORT_STATUS_COMPLETED' | 'SBOM_EXPORT_STATUS_FAILED'>;

export interface SbomExportStatus {
  readonly state: SbomExportState;
  readonly downloadUrl?: string;
  readonly errorMessage?: string;
}

/** Spec 4.2 filters. Array filters are sent as repeated keys; empty arrays are not sent. */
export interface FindingFilters {
  /** Secrets only (`validationState`, without its long prefix). */
  readonly validationStates?: readonly SecretValidation[];
  readonly since?: number;
  readonly dedup?: boolean;
  readonly repos?: readonly string[];
  readonly repositoryIds?: readonly number[];
  readonly status?: FindingStatus;
  readonly triageReasons?: readonly TriageReason[];
  readonly severities?: readonly Severity[];
  readonly ref?: string;
  /** sast only */
  readonly policies?: readonly string[];
  /** sast only */
  readonly rules?: readonly string[];
  /** sast only */
  readonly categories?: readonly string[];
  /** sast only */
  readonly confidence?: Confidence;
  /** sast only */
  readonly autotriageVerdict?: AutotriageVerdict;
  readonly componentTags?: readonly string[];
  /** sca only */
  readonly exposures?: readonly Reachability[];
  /** sca only */
  readonly transitivities?: readonly Transitivity[];
  /** sca only */
  readonly isMalicious?: boolean;
  readonly clickToFixPrState?: readonly string[];
}


/** A scan of a repository (`scans/search`): which commit of which branch was scanned. */
export interface Scan {
  readonly id: number;
  readonly repositoryId?: number;
  readonly branch?: string;
  /** The scanned commit's SHA. */
  readonly commit?: string;
  readonly status?: string;
  readonly startedAt?: Date;
  readonly completedAt?: Date;
  readonly isFullScan?: boolean;
}

export type ScanStatus = Open<'SCAN_STATUS_COMPLETED' | 'SCAN_STATUS_RUNNING' | 'SCAN_STATUS_PENDING' | 'SCAN_STATUS_CANCELLED' | 'SCAN_STATUS_ERROR' | 'SCAN_STATUS_NEVER_FINISHED'>;
