/**
 * Matches a workspace folder's git remotes to a platform project. Project names are the
 * repository "written as a path" (`org/repo`, `group/sub/repo`); remotes come as https, ssh
 * (`git@host:group/repo.git`), `ssh://` or with credentials in them.
 */

/** The repository path of a remote URL, lower-cased for comparison: `group/sub/repo`. */
export function repositoryPathOf(remoteUrl: string): string | undefined {
  return repositoryNameOf(remoteUrl)?.toLowerCase();
}

/**
 * The repository path of a remote URL as written (`Org/Repo`): the project name the platform
 * most likely gives it, used before the project list is known.
 */
export function repositoryNameOf(remoteUrl: string): string | undefined {
  const url = remoteUrl.trim();
  if (!url) return undefined;
  let path: string | undefined;
  const scp = /^[\w.-]+@[\w.-]+:(?!\/\/)(.+)$/.exec(url); // git@github.com:org/repo.git
  if (scp) {
    path = scp[1];
  } else {
    try {
      path = new URL(url).pathname;
    } catch {
      return undefined;
    }
  }
  const cleaned = decodeSafely(path ?? '')
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/i, '')
    .replace(/^scm\//, ''); // Bitbucket Server style clone paths
  return cleaned.includes('/') ? cleaned : undefined;
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The project for a folder: an explicit mapping from settings wins; otherwise the project whose
 * name equals a remote's repository path (exact first, then the longest suffix match, since a
 * platform may omit a host-specific prefix such as a GitLab top group).
 */
export function matchProject(remoteUrls: readonly string[], projectNames: readonly string[], mapped?: string): string | undefined {
  if (mapped) return projectNames.find((n) => n.toLowerCase() === mapped.toLowerCase()) ?? mapped;
  const byLower = new Map(projectNames.map((n) => [n.toLowerCase(), n]));
  const paths = remoteUrls.map(repositoryPathOf).filter((p): p is string => p !== undefined);
  for (const path of paths) {
    const exact = byLower.get(path);
    if (exact) return exact;
  }
  let best: string | undefined;
  for (const path of paths) {
    for (const [lower, name] of byLower) {
      const suffix = path.endsWith(`/${lower}`) || lower.endsWith(`/${path}`);
      if (suffix && lower.includes('/') && (!best || name.length > best.length)) best = name;
    }
  }
  return best;
}
