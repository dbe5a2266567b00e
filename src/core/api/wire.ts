/**
 * Wire types: the JSON exactly as the platform sends it (spec sections 2 and 4, plus the shapes
 * the real service is seen to send, see docs/platform-api.md). Every field is optional and
 * `unknown`-tolerant at the edges because nothing here is trusted; the decoders in
 * `../model/decode*.ts` turn these into domain types.
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
  externalSlug?: string;
  linkedIssueIds?: number[];
  url?: string;
}

export interface WireRepository {
  name?: string;
  url?: string;
}

export interface WireReviewComment {
  externalDiscussionId?: string;
  externalNoteId?: number;
}

export interface WireFindingRule {
  name?: string;
  message?: string;
  category?: string;
  confidence?: string;
  cweNames?: string[];
  owaspNames?: string[];
  subcategories?: string[];
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

/** Spec 4.2 response. Which member is filled for which issue_type is not specified: read both. */
export interface WireFindingsResponse {
  sastFindings?: { findings?: unknown[] };
  scaFindings?: { findings?: unknown[] };
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

export interface WireProjectsResponse {
  projects?: unknown[];
}

export interface WireProjectResponse {
  project?: unknown;
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

/** Spec 4.1 response. */
export interface WirePolicyRulesResponse {
  cursor?: string;
  policy?: unknown;
  rules?: unknown[];
}

/** Real service: `GET /api/v1/deployments/{deploymentId}/policies`. */
export interface WirePoliciesResponse {
  policies?: unknown[];
}

/** Real service: `GET /api/v1/deployments`. */
export interface WireDeployment {
  id?: number | string;
  name?: string;
  slug?: string;
}

export interface WireDeploymentsResponse {
  deployments?: unknown[];
}

/** Spec 4.3 request body. */
export interface WireSbomExportRequest {
  deploymentId?: string;
  formatVersion?: { format?: string; version?: string };
  metadataComponentType?: string;
  metadataSupplier?: {
    name?: string;
    url?: string;
    contact?: { name?: string; email?: string; phone?: string };
  };
  ref?: string;
  repositoryId?: string;
  sbomOutputFormat?: string;
}

/** Spec 4.3 response. */
export interface WireSbomExportResponse {
  taskToken?: string;
}

/** Real service: `GET /api/v1/deployments/{deploymentId}/sbom/export/{taskToken}`. */
export interface WireSbomExportStatus {
  status?: string;
  downloadUrl?: string;
  errorMessage?: string;
}
