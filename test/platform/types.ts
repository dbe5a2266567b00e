/**
 * The data a local platform serves. It is plain, mutable data on purpose: tests change it
 * (add a finding, flip a status) and the next request sees the change.
 */
import type { WireAiSastFinding, WireSecretFinding } from './secrets-and-ai';
import type { WirePolicy, WireProject, WireRule, WireSastFinding, WireScaFinding, WireScan } from './wire';

/** A project as stored by the platform: every wire field filled. */
export interface StoredProject extends WireProject {
  id: number;
  name: string;
  tags: string[];
  created_at: string;
  default_branch: string;
  primary_branch: string;
  latest_scan_at: string;
  url: string;
  managed_scan_config: { diff_scan: { enabled: boolean }; full_scan: { enabled: boolean } };
  /**
   * The id used by `repository_ids` and SBOM `repositoryId`. Generated equal to `id` (the only id
   * a client can learn from the project endpoints) but kept apart so a test can make them differ.
   * Never sent on the wire.
   */
  repository_id: number;
}

export interface PlatformDeployment {
  id: number;
  name: string;
  slug: string;
}

export interface PlatformData {
  deployment: PlatformDeployment;
  projects: StoredProject[];
  sast: WireSastFinding[];
  sca: WireScaFinding[];
  /** AI code findings (`issue_type=ai_sast`); empty unless added (secrets-and-ai.ts). */
  ai_sast: WireAiSastFinding[];
  /** Secrets findings (their own list); empty unless added. */
  secrets: WireSecretFinding[];
  policies: WirePolicy[];
  rulesByPolicyId: Map<string, WireRule[]>;
  /** Completed and other scans, newest last; `scans/search` answers from it. */
  scans: WireScan[];
  /** The code of a project's files by project name and path (the demo's): traces quote and point at real lines. */
  sourceFiles?: Map<string, Record<string, string>>;
}

/** State of a finding's one-click-fix pull request (filter `click_to_fix_pr_state`). */
export type ClickToFixPrState = 'open' | 'merged';
