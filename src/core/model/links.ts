/**
 * Links a user opens. One rule each, used by every view and command: the platform's page of a
 * finding (what "Open in Platform" and a diagnostic's code link to), distinct from the code
 * host's line (`lineOfCodeUrl`), which opens the scanned code on GitHub or GitLab. The numbers
 * links carry are read here too, once: a finding's id ending its page, a line in a `#L` anchor.
 */
import { KINDS, kindOf } from './finding-kinds';
import { ISSUE_TYPES, type Finding, type IssueType, type Project } from './types';

/**
 * The platform's web page of a finding (docs/platform-api.md, "Links"). The web UI is served
 * from the API's base URL; code findings (AI ones too) live under `findings`, supply-chain ones
 * under `supply-chain`, secrets under `secrets`.
 */
export function platformFindingUrl(baseUrl: string, deploymentSlug: string, finding: Pick<Finding, 'issueType' | 'id'>): string {
  const base = baseUrl.replace(/\/+$/, '');
  return `${base}/orgs/${encodeURIComponent(deploymentSlug)}/${kindOf(finding).webSection}/${finding.id}`;
}

/** A finding's id ends its page's link; at most 15 digits, so it stays exact as a number. */
const ID_DIGITS = 15;
const FINDING_PAGE = new RegExp(`/(${ISSUE_TYPES.map((type) => KINDS[type].webSection).join('|')})/(\\d{1,${ID_DIGITS}})(?:[/?#]|$)`);
/** The same id at the very end of a link, without a leading zero so that it reads back as written. */
const TRAILING_ID = new RegExp(`/(0|[1-9]\\d{0,${ID_DIGITS - 1}})$`);

/** The kind and id a platform link of a finding names (any of the sections above), or undefined. */
export function parseFindingUrl(url: string): { issueType: IssueType; id: number } | undefined {
  const match = FINDING_PAGE.exec(url);
  if (!match) return undefined;
  const issueType = ISSUE_TYPES.find((type) => KINDS[type].webSection === match[1]);
  return issueType && { issueType, id: Number(match[2]) };
}

/**
 * A link that ends in an id (a finding's page), cut into what comes before the id and the id, so
 * thousands of links can be kept as one shared prefix and a number each; `prefix + id` is the
 * link again. Undefined for a link that does not end that way.
 */
export function splitTrailingId(link: string): { readonly prefix: string; readonly id: number } | undefined {
  const match = TRAILING_ID.exec(link);
  return match ? { prefix: link.slice(0, match.index + 1), id: Number(match[1]) } : undefined;
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

/** The 1-based line of a `…#L42` (or `…#L42-L45`) link, or undefined when it names none. */
export function lineFromUrl(url: string | undefined): number | undefined {
  if (url === undefined) {
    return undefined;
  }
  // The link must end in `#L<digits>` or `#L<digits>-[L]<digits>`; no `#` can follow that `#L`.
  const at = url.lastIndexOf('#L');
  if (at < 0) {
    return undefined;
  }
  const end = url.length;
  let i = at + 2;
  let line = 0;
  for (; i < end && isDigit(url.charCodeAt(i)); i++) {
    line = line * 10 + (url.charCodeAt(i) - 48);
  }
  if (i === at + 2) {
    return undefined;
  }
  if (i < end) {
    if (url.charCodeAt(i) !== 45) {
      return undefined;
    }
    i += url.charCodeAt(i + 1) === 76 ? 2 : 1;
    const from = i;
    while (i < end && isDigit(url.charCodeAt(i))) {
      i++;
    }
    if (i === from || i !== end) {
      return undefined;
    }
  }
  return Number.isSafeInteger(line) && line > 0 ? line : undefined;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
