/**
 * Wire types: the JSON of findings, projects, policies and scans as the platform sends it (both
 * spellings where the service and its reference differ; see docs/platform-api.md), for the local
 * platform server that plays the service in tests, the demo and the benchmark. The extension
 * itself reads answers as `unknown` (src/core/model/decodeRead.ts): nothing received is trusted
 * to match these.
 */

/** Spec 2.3 (camelCase) and the real service (snake_case) both occur. */
export interface WireLocation {
  filePath?: string;
  file_path?: string;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
  end_line?: number;
  end_column?: number;
}

/** Supply-chain `usage.location` as the real service sends it. */
export interface WireUsageLocation extends WireLocation {
  path?: string;
  start_line?: number;
  start_col?: number;
  end_col?: number;
  url?: string;
}

export interface WireExternalTicket {
  id?: number;
  /** The service's spelling; the spec writes `externalSlug`. */
  external_slug?: string;
  externalSlug?: string;
  linked_issue_ids?: number[];
  linkedIssueIds?: number[];
  url?: string;
}

export interface WireRepository {
  name?: string;
  url?: string;
}

export interface WireReviewComment {
  external_discussion_id?: string;
  externalDiscussionId?: string;
  external_note_id?: number;
  externalNoteId?: number;
}

export interface WireFindingRule {
  name?: string;
  message?: string;
  category?: string;
  confidence?: string;
  /** The service spells the lists in snake_case, the spec in camelCase. */
  cwe_names?: string[];
  cweNames?: string[];
  owasp_names?: string[];
  owaspNames?: string[];
  subcategories?: string[];
  vulnerability_classes?: string[];
  vulnerabilityClasses?: string[];
}

export interface WireAssistant {
  autofix?: { fix_code?: string; explanation?: string | null };
  autotriage?: { verdict?: string; reason?: string };
  component?: { risk?: string; tag?: string };
  guidance?: { summary?: string; instructions?: string | null };
  rule_explanation?: { summary?: string; explanation?: string };
}

/** Fields common to code (2.4) and supply-chain (2.5) findings. */
export interface WireFindingBase {
  id?: number;
  syntactic_id?: string;
  match_based_id?: string;
  rule_name?: string;
  rule_message?: string | null;
  rule?: WireFindingRule;
  categories?: string[];
  confidence?: string;
  severity?: string;
  status?: string;
  state?: string;
  state_updated_at?: string;
  triage_state?: string;
  triage_reason?: string;
  triage_comment?: string;
  triaged_at?: string;
  created_at?: string;
  relevant_since?: string;
  first_seen_scan_id?: number;
  ref?: string;
  repository?: WireRepository;
  location?: WireLocation;
  line_of_code_url?: string;
  external_ticket?: WireExternalTicket;
  review_comments?: WireReviewComment[];
}

/** Spec 2.4. */
export interface WireSastFinding extends WireFindingBase {
  sourcing_policy?: { id?: number; name?: string; slug?: string };
  click_to_fix_prs?: { created_at?: string; url?: string }[];
  click_to_fix_failures?: { created_at?: string; reason?: string }[];
  assistant?: WireAssistant;
}

/** Spec 2.5. */
export interface WireScaFinding extends WireFindingBase {
  vulnerability_identifier?: string;
  is_malicious?: boolean;
  reachability?: string;
  reachable_condition?: string;
  epss_score?: { score?: number; percentile?: number };
  fix_recommendations?: { package?: string; version?: string }[];
  found_dependency?: {
    ecosystem?: string;
    package?: string;
    version?: string;
    transitivity?: string;
    lockfile_line_url?: string;
  };
  usage?: { external_ticket?: WireExternalTicket; location?: WireUsageLocation };
}

/** Spec 2.6. `managed_scan_config` only in single-project and tag responses. */
export interface WireProject {
  id?: number;
  name?: string;
  tags?: string[];
  created_at?: string;
  default_branch?: string;
  primary_branch?: string;
  latest_scan_at?: string;
  url?: string;
  managed_scan_config?: { diff_scan?: { enabled?: boolean }; full_scan?: { enabled?: boolean } };
}

/** Spec 2.1. */
export interface WirePolicy {
  id?: string;
  isDefault?: boolean;
  name?: string;
  productType?: string;
  slug?: string;
}

/** Spec 2.2. */
export interface WireRule {
  id?: string;
  path?: string;
  category?: string;
  confidence?: string;
  severity?: string;
  source?: string;
  policyMode?: string;
  cweCategories?: string[];
  owaspCategories?: string[];
  vulnerabilityClass?: string[];
  languages?: string[];
  technologies?: string[];
  rulesets?: string[];
  registryMaintainer?: string;
  url?: string;
  lastChangeAt?: string;
  lastChangeBy?: string;
}

/** One scan in `scans/search`'s `scans` list (docs/platform-api.md, "Scans"). */
export interface WireScan {
  id?: number;
  repository_id?: number;
  branch?: string;
  commit?: string;
  status?: string;
  started_at?: string;
  completed_at?: string;
  is_full_scan?: boolean;
}
