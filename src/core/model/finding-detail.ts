/**
 * The long tail of a finding, loaded when one is opened (the details page, the hover's guidance):
 * what a list keeps compact in {@link Finding} and what only the detail has.
 */
import type { AutotriageVerdict, Finding } from './types';

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
