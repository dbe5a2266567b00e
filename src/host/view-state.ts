/**
 * What the user chose for the views in this workspace: findings filters, grouping and per-project
 * refs. Persisted in workspace state (not settings: a filter is a view choice, not config), with
 * the settings' defaults until the user picks. Sets the context keys menus depend on.
 */
import * as vscode from 'vscode';
import { EMPTY_SELECTION, isEmptySelection, parseSelection, type FilterSelection } from '../core/services/filters';
import type { GroupBy } from '../core/services/grouping';
import { settings } from './settings';

const FILTERS_KEY = 'appsecFindings.filters';
const GROUP_KEY = 'appsecFindings.groupBy';
const REFS_KEY = 'appsecFindings.refOverrides';

export class ViewState implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<'filters' | 'groupBy' | 'ref'>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {
    void this.updateContext();
  }

  selection(): FilterSelection {
    const stored = this.state.get<unknown>(FILTERS_KEY);
    return stored === undefined ? this.defaultSelection() : parseSelection(stored);
  }

  /** The filters of the `appsecFindings.defaultFilters.*` settings (open findings, unless changed). */
  defaultSelection(): FilterSelection {
    const status = settings.defaultStatus();
    return parseSelection({ ...EMPTY_SELECTION, ...(status ? { status } : {}), severities: settings.defaultSeverities() });
  }

  async setSelection(selection: FilterSelection): Promise<void> {
    await this.state.update(FILTERS_KEY, selection);
    await this.updateContext();
    this.changed.fire('filters');
  }

  /**
   * Back to the default filters: clearing every filter would bring fixed and ignored findings
   * into the tree, which a user clearing a severity or file filter does not ask for.
   */
  clearFilters(): Promise<void> {
    return this.setSelection(this.defaultSelection());
  }

  groupBy(): GroupBy {
    const stored = this.state.get<string>(GROUP_KEY);
    return stored === 'severity' || stored === 'rule' || stored === 'file' ? stored : settings.groupBy();
  }

  async setGroupBy(groupBy: GroupBy): Promise<void> {
    await this.state.update(GROUP_KEY, groupBy);
    this.changed.fire('groupBy');
  }

  refOverride(projectName: string): string | undefined {
    const refs = this.state.get<Record<string, string>>(REFS_KEY) ?? {};
    const ref = refs[projectName];
    return typeof ref === 'string' && ref ? ref : undefined;
  }

  async setRefOverride(projectName: string, ref: string | undefined): Promise<void> {
    const refs = { ...(this.state.get<Record<string, string>>(REFS_KEY) ?? {}) };
    if (ref) refs[projectName] = ref;
    else delete refs[projectName];
    await this.state.update(REFS_KEY, refs);
    this.changed.fire('ref');
  }

  private async updateContext(): Promise<void> {
    await vscode.commands.executeCommand('setContext', 'appsecFindings.filtersActive', !isEmptySelection(this.selection()));
  }

  dispose(): void {
    this.changed.dispose();
  }
}
