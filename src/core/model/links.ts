/**
 * Links a user opens. One rule each, used by every view and command: the platform's page of a
 * finding (what "Open in Platform" and a diagnostic's code link to), distinct from the code
 * host's line (`lineOfCodeUrl`), which opens the scanned code on GitHub or GitLab.
 */
import type { Finding, IssueType, Project } from './types';

/**
 * The platform's web page of a finding. The web UI is served from the API's base URL; code
 * findings live under `findings`, supply-chain ones under `supply-chain`.
 */
export function platformFindingUrl(baseUrl: string, deploymentSlug: string, finding: Pick<Finding, 'issueType' | 'id'>): string {
  const base = baseUrl.replace(/\/+$/, '');
  return `${base}/orgs/${encodeURIComponent(deploymentSlug)}/${FINDING_SECTIONS[finding.issueType]}/${finding.id}`;
}

/** The section of the web UI each kind's pages are under; the one rule that builds and reads them. */
const FINDING_SECTIONS: Record<IssueType, string> = { sast: 'findings', sca: 'supply-chain', secrets: 'secrets' };

/** The kind and id a platform link of a finding names (any of the sections above), or undefined. */
export function parseFindingUrl(url: string): { issueType: IssueType; id: number } | undefined {
  const match = /\/(findings|supply-chain|secrets)\/(\d{1,15})(?:[/?#]|$)/.exec(url);
  if (!match) return undefined;
  const issueType = (Object.keys(FINDING_SECTIONS) as IssueType[]).find((type) => FINDING_SECTIONS[type] === match[1]);
  return issueType && { issueType, id: Number(match[2]) };
}

/**
 * The platform's page of a project (docs/platform-api.md, "Links"): the project's id under the
 * deployment's projects.
 */
export function platformProjectUrl(baseUrl: string, deploymentSlug: string, project: Pick<Project, 'id'>): string {
  return `${baseUrl.replace(/\/+$/, '')}/orgs/${encodeURIComponent(deploymentSlug)}/projects/${project.id}`;
}

export type CodeHost = 'github' | 'gitlab' | 'other';

/** Which code host an http(s) link goes to, so the menu can say "Open on GitHub" or "Open on GitLab". */
export function codeHostOf(url: string | undefined): CodeHost | undefined {
  if (!url) return undefined;
  let host: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
    host = parsed.hostname.toLowerCase();
  } catch {
    return undefined;
  }
  if (host === 'github.com' || host.endsWith('.github.com')) return 'github';
  if (host === 'gitlab.com' || host.endsWith('.gitlab.com') || host.split('.').includes('gitlab')) return 'gitlab';
  return 'other';
}

/** True for absolute http and https URLs, the only ones the extension links to or opens. */
export function isHttpUrl(url: string | undefined): url is string {
  if (!url) return false;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
