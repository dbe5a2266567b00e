/**
 * Domain types: what the rest of the extension works with. Decoded from the platform's JSON by
 * the tolerant readers in `decode*.ts`. Enumerations are open (`Known | (string & {})`) because
 * the service grows them: an unknown value is kept and shown, never dropped. A finding's detail,
 * triage and tickets, policies and SBOM exports have their own files beside this one.
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
  readonly managedScanConfig?: ManagedScans;
}

/** Whether the platform scans a project on its own: each pull request (diff-aware), and the whole repository. */
export interface ManagedScans {
  readonly diffScanEnabled: boolean;
  readonly fullScanEnabled: boolean;
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
  /** The ticket's id on the platform: what unlinking it from every finding takes. */
  readonly id?: number;
  readonly slug?: string;
  readonly url?: string;
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
