/**
 * Typed reads of the extension's settings. Values are validated here so the rest of the code
 * never sees a wrong type from a hand-edited settings.json.
 */
import { DEFAULT_CACHE_MEGABYTES } from '../core/services/findings-cache';
import { DEFAULT_UNSHOWN_LIMIT } from '../core/services/findings-store-options';
import * as vscode from 'vscode';
import type { Level, SeverityMapping } from '../core/workspace/diagnostic-plan';
import { DEFAULT_MAPPING, LEVELS } from '../core/workspace/diagnostic-plan';
import type { GroupBy } from '../core/services/grouping';

export const SECTION = 'appsecFindings';

function config(scope?: vscode.ConfigurationScope): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SECTION, scope);
}

/**
 * Settings that decide where the token goes are read from user (global) scope only: even if a
 * workspace's settings.json names them, a cloned repository must not redirect the token.
 */
function userOnly(key: string): string {
  const inspected = config().inspect<string>(key);
  const value = inspected?.globalValue ?? inspected?.defaultValue ?? '';
  return typeof value === 'string' ? value.trim() : '';
}

export const settings = {
  baseUrl: (): string => userOnly('baseUrl').replace(/\/+$/, '') || 'https://semgrep.dev',
  deploymentId: (): string => userOnly('deploymentId'),
  deploymentSlug: (): string => userOnly('deploymentSlug'),
  caBundlePath: (): string => userOnly('caBundlePath'),
  notifyNewFindings(): boolean {
    return config().get<boolean>('notifyNewFindings', true) !== false;
  },
  stopNotifyingNewFindings(): Thenable<void> {
    return config().update('notifyNewFindings', false, vscode.ConfigurationTarget.Global);
  },
  /** `appsecFindings.agents.mcpServerInVsCode`: the MCP server offered to VS Code's own agent too (off: Copilot has the language-model tools). */
  mcpServerInVsCode(): boolean {
    return config().get<boolean>('agents.mcpServerInVsCode', false) === true;
  },
  /** `appsecFindings.dependencies.inlayHints`: the inventory's hint at the end of manifest and lockfile lines. */
  dependencyInlayHints(): boolean {
    return config().get<boolean>('dependencies.inlayHints', true) !== false;
  },
  unreachableAsInformation(): boolean {
    return config().get<boolean>('unreachableAsInformation', true) !== false;
  },
  severityMapping(): SeverityMapping {
    const raw = config().get<Record<string, unknown>>('severityMapping') ?? {};
    const mapping: Record<string, Level> = { ...DEFAULT_MAPPING };
    for (const [severity, level] of Object.entries(raw)) {
      if (typeof level === 'string' && (LEVELS as readonly string[]).includes(level)) mapping[severity] = level as Level;
    }
    return mapping;
  },
  autoRefreshMinutes(): number {
    const minutes = config().get<number>('autoRefreshMinutes', 15);
    return typeof minutes === 'number' && Number.isFinite(minutes) && minutes > 0 ? Math.min(minutes, 1440) : 0;
  },
  /** Findings kept in memory for answers no view shows (see FindingsStore); at least 1 000. */
  cacheUnshownFindings(): number {
    const count = config().get<number>('cache.unshownFindings', DEFAULT_UNSHOWN_LIMIT);
    return typeof count === 'number' && Number.isFinite(count) ? Math.max(1_000, Math.floor(count)) : DEFAULT_UNSHOWN_LIMIT;
  },
  /** `appsecFindings.cache.maxMegabytes` in bytes (0: no disk cache). */
  cacheMaxBytes(): number {
    const megabytes = config().get<number>('cache.maxMegabytes', DEFAULT_CACHE_MEGABYTES);
    return (typeof megabytes === 'number' && Number.isFinite(megabytes) ? Math.max(0, megabytes) : DEFAULT_CACHE_MEGABYTES) * 1024 * 1024;
  },
  defaultStatus(): string | undefined {
    const status = config().get<string>('defaultFilters.status', 'open');
    return typeof status === 'string' && status ? status : undefined;
  },
  defaultSeverities(): string[] {
    const severities = config().get<unknown>('defaultFilters.severities', []);
    return Array.isArray(severities) ? severities.filter((s): s is string => typeof s === 'string') : [];
  },
  groupBy(): GroupBy {
    const value = config().get<string>('groupBy', 'severity');
    return value === 'rule' || value === 'file' ? value : 'severity';
  },
  folderProjects(folder: vscode.WorkspaceFolder): string | undefined {
    const map = config(folder).get<Record<string, unknown>>('folderProjects') ?? {};
    const value = map[folder.name];
    return typeof value === 'string' && value.trim() ? value.trim() : undefined;
  },
  policyIds(): string[] {
    const ids = config().get<unknown>('policyIds', []);
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string' && /^\d+$/.test(id)) : [];
  },
  sbomSupplier(): { name?: string; url?: string; contact?: { name?: string; email?: string; phone?: string } } | undefined {
    const raw = config().get<unknown>('sbom.supplier');
    if (typeof raw !== 'object' || raw === null) return undefined;
    const s = raw as Record<string, unknown>;
    const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
    const c = typeof s.contact === 'object' && s.contact !== null ? (s.contact as Record<string, unknown>) : {};
    const contact = { name: text(c.name), email: text(c.email), phone: text(c.phone) };
    const supplier = { name: text(s.name), url: text(s.url), ...(contact.name || contact.email || contact.phone ? { contact } : {}) };
    return supplier.name || supplier.url || supplier.contact ? supplier : undefined;
  },
};

/** True when a change touches a setting that says which deployment the views show. */
export function affectsDeployment(e: vscode.ConfigurationChangeEvent): boolean {
  return ['baseUrl', 'deploymentId', 'deploymentSlug'].some((k) => e.affectsConfiguration(`${SECTION}.${k}`));
}

/** True when a change touches a setting that decides where requests go (client must be rebuilt). */
export function affectsConnection(e: vscode.ConfigurationChangeEvent): boolean {
  return (
    affectsDeployment(e) ||
    e.affectsConfiguration(`${SECTION}.caBundlePath`) ||
    e.affectsConfiguration('http.proxy') ||
    e.affectsConfiguration('http.proxyStrictSSL') ||
    e.affectsConfiguration('http.noProxy')
  );
}

/** True when a change touches the level findings are drawn at (Problems and the tree): the same findings are drawn again, nothing is loaded. */
export function affectsLevels(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration(`${SECTION}.severityMapping`) || e.affectsConfiguration(`${SECTION}.unreachableAsInformation`);
}
