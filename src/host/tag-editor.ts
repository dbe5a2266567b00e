/**
 * The tags picker: one list with the project's tags ticked (untick to remove) and the text typed
 * as new tags, comma-separated, shown as the first row. Every row always shows, so typing never
 * hides a tag. It opens again from a draft (the ticks and the text), so nothing typed is lost.
 */
import * as vscode from 'vscode';
import type { Project } from '../core/model/types';
import { typedRow, type TagDraft } from './project-settings-text';

interface TagItem extends vscode.QuickPickItem {
  readonly tag?: string;
  readonly typed?: boolean;
}

/** Resolves with what was accepted (the text only while its row stays ticked), or undefined when dismissed. */
export function pickTagEdit(project: Project, draft: TagDraft = { unchecked: [], typed: '' }): Promise<TagDraft | undefined> {
  const pick = vscode.window.createQuickPick<TagItem>();
  pick.title = `AppSec: Edit Tags of ${project.name}`;
  pick.placeholder = project.tags.length > 0 ? 'Untick a tag to remove it; type new tags, comma-separated, to add them' : 'Type new tags, comma-separated (e.g. team-payments, pci)';
  pick.canSelectMany = true;
  // A click elsewhere must not throw away what was typed.
  pick.ignoreFocusOut = true;
  const tagItems: TagItem[] = project.tags.map((tag) => ({ label: tag, tag, alwaysShow: true }));
  const unchecked = new Set(draft.unchecked.filter((t) => project.tags.includes(t)));
  // The typed row is always first, so every row keeps its place (the picker names rows by place).
  let typedTicked = false;
  let valid = true;
  const draw = (): void => {
    const row = typedRow(pick.value, project.tags);
    valid = row.tags !== undefined;
    const typedItem: TagItem = { label: row.label, description: row.description, detail: row.detail, alwaysShow: true, typed: true };
    pick.items = [typedItem, ...tagItems];
    pick.selectedItems = [...(valid && typedTicked ? [typedItem] : []), ...tagItems.filter((i) => i.tag !== undefined && !unchecked.has(i.tag))];
  };
  draw();
  return new Promise((resolve) => {
    let result: TagDraft | undefined;
    pick.onDidChangeValue((value) => {
      // New text is meant to be added.
      typedTicked = value.trim() !== '';
      draw();
    });
    pick.onDidChangeSelection((selected) => {
      for (const item of tagItems) {
        if (item.tag === undefined) continue;
        if (selected.includes(item)) unchecked.delete(item.tag);
        else unchecked.add(item.tag);
      }
      if (valid) typedTicked = selected.some((item) => item.typed === true);
    });
    pick.onDidAccept(() => {
      // Text that cannot be added keeps the picker open: its row says why.
      if (!valid) return;
      result = { unchecked: project.tags.filter((t) => unchecked.has(t)), typed: typedTicked ? pick.value : '' };
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(result);
    });
    pick.show();
    // Set once shown, so the text typed before is not selected (a keystroke would replace it).
    if (draft.typed.trim() !== '') {
      pick.value = draft.typed;
      typedTicked = true;
      draw();
    }
  });
}
