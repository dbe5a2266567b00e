/**
 * The tags picker: one list. The first row takes the text typed (new tags, comma-separated) and
 * saves everything; each tag's row, picked (a click, or Enter), switches between kept and removed.
 * There are no checkboxes: a click on a checkbox takes the focus from the text, and the keys typed
 * next go nowhere, while a click on a row leaves the focus in the text. Every row always shows, so
 * typing never hides a tag. It opens again from a draft (the tags to remove and the text), so
 * nothing typed is lost.
 */
import * as vscode from 'vscode';
import { t } from '../core/l10n';
import type { Project } from '../core/model/types';
import { typedRow, type TagDraft } from './project-settings-text';
import { inertIcons } from '../core/model/untrusted-text';

interface TagItem extends vscode.QuickPickItem {
  /** Set on a tag's row; the first row has none. */
  readonly tag?: string;
}

/** Resolves with what was saved (the tags to remove and the text typed), or undefined when dismissed. */
export function pickTagEdit(project: Project, draft: TagDraft = { unchecked: [], typed: '' }): Promise<TagDraft | undefined> {
  const pick = vscode.window.createQuickPick<TagItem>();
  pick.title = t('AppSec: Edit Tags of {0}', project.name);
  pick.placeholder =
    project.tags.length > 0
      ? t('New tags, comma-separated; pick a tag to remove or keep it')
      : t('Type new tags, comma-separated (e.g. {0})', 'team-payments, pci');
  // A click elsewhere must not throw away what was typed.
  pick.ignoreFocusOut = true;
  pick.keepScrollPosition = true;
  const removed = new Set(draft.unchecked.filter((tag) => project.tags.includes(tag)));
  let valid = true;
  const draw = (activeTag?: string): void => {
    const row = typedRow(pick.value, project.tags);
    valid = row.tags !== undefined;
    const first: TagItem = { label: row.label, description: row.description, detail: row.detail ?? removalText(removed), alwaysShow: true };
    const tagItems = project.tags.map((tag): TagItem =>
      removed.has(tag)
        ? { label: `$(close) ${inertIcons(tag)}`, description: t('removed when you save · pick to keep it'), tag, alwaysShow: true }
        : { label: `$(tag) ${inertIcons(tag)}`, description: t('kept · pick to remove it'), tag, alwaysShow: true },
    );
    pick.items = [first, ...tagItems];
    // Typing makes the first row active, so Enter saves what was typed; a picked tag stays active.
    pick.activeItems = [tagItems.find((item) => item.tag === activeTag) ?? first];
  };
  draw();
  return new Promise((resolve) => {
    let result: TagDraft | undefined;
    pick.onDidChangeValue(() => draw());
    pick.onDidAccept(() => {
      const tag = pick.activeItems[0]?.tag;
      if (tag !== undefined) {
        if (!removed.delete(tag)) removed.add(tag);
        draw(tag);
        return;
      }
      // Text that cannot be added keeps the picker open: its row says why.
      if (!valid) return;
      result = { unchecked: project.tags.filter((tag) => removed.has(tag)), typed: pick.value };
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
      draw();
    }
  });
}

/** The first row's second line while tags are to be removed: saving removes them. */
function removalText(removed: ReadonlySet<string>): string | undefined {
  return removed.size === 0 ? undefined : t('Enter saves, and removes {0}', [...removed].join(', '));
}
