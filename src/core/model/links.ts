/**
 * Links a user opens. One rule each, used by every view and command: the platform's page of a
 * finding (what "Open in Platform" and a diagnostic's code link to), distinct from the code
 * host's line (`lineOfCodeUrl`), which opens the scanned code on GitHub or GitLab.
 */
import type { Finding } from './types';

/**
 * The platform's web page of a finding. The web UI is served from the API's base URL; code
 * findings live under `findings`, supply-chain ones under `supply-chain`.
 */
export function platformFindingUrl(baseUrl: string, deploymentSlug: string, finding: Pick<Finding, 'issueType' | 'id'>): string {
  const base = baseUrl.replace(/\/+$/, '');
  return `${base}/orgs/${encodeURIComponent(deploymentSlug)}/${finding.issueType === 'sca' ? 'supply-chain' : 'findings'}/${finding.id}`;
}
