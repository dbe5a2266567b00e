/**
 * The managed scans picker: the two settings as ticks, ticked as they are now (busy while the
 * project's details load).
 */
import * as vscode from 'vscode';
import { t } from '../core/l10n';
import type { ManagedScans, Project } from '../core/model/types';
import { managedScanRows, type ManagedScanKey } from './project-settings-text';

interface ScanItem extends vscode.QuickPickItem {
  readonly key: ManagedScanKey;
}

/**
 * Resolves with the settings as they were and as ticked, or undefined when dismissed; rejects
 * when the settings could not be read (nothing could be shown as it is).
 */
export function pickManagedScans(
  project: Project,
  load: (signal: AbortSignal) => Promise<ManagedScans>,
): Promise<{ readonly before: ManagedScans; readonly wanted: ManagedScans } | undefined> {
  const pick = vscode.window.createQuickPick<ScanItem>();
  pick.title = t('AppSec: Managed Scans of {0}', project.name);
  pick.placeholder = t('Loading the managed scan settings…');
  pick.canSelectMany = true;
  pick.busy = true;
  const controller = new AbortController();
  const items: ScanItem[] = managedScanRows().map(({ key, label, detail }) => ({ key, label, detail }));
  let before: ManagedScans | undefined;
  return new Promise((resolve, reject) => {
    let result: { readonly before: ManagedScans; readonly wanted: ManagedScans } | undefined;
    let failure: Error | undefined;
    load(controller.signal).then(
      (scans) => {
        if (controller.signal.aborted) return;
        before = scans;
        pick.items = items;
        pick.selectedItems = items.filter((item) => scans[item.key]);
        pick.placeholder = t('Tick the scans the platform runs on its own');
        pick.busy = false;
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        failure = error instanceof Error ? error : new Error(t('The managed scan settings could not be read: {0}', JSON.stringify(error)));
        pick.hide();
      },
    );
    pick.onDidAccept(() => {
      if (!before) return;
      const ticked = new Set(pick.selectedItems.map((item) => item.key));
      result = { before, wanted: { diffScanEnabled: ticked.has('diffScanEnabled'), fullScanEnabled: ticked.has('fullScanEnabled') } };
      pick.hide();
    });
    pick.onDidHide(() => {
      controller.abort();
      pick.dispose();
      if (failure) reject(failure);
      else resolve(result);
    });
    pick.show();
  });
}
