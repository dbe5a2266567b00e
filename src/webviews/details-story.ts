/**
 * The Finding Details panel's part of a finding's story: read when the panel shows the finding
 * (never before), laid out as far as it is known (loading, read, not offered, failed), its trace
 * placed in today's code each time the page is drawn, and a step opened where its code is (or on
 * the platform, when it is not in the workspace). A story that cannot be read leaves the rest of
 * the page as it is.
 */
import { showCode } from '../code-places/show-code';
import * as vscode from 'vscode';
import { t } from '../core/l10n';
import type { Finding } from '../core/model/types';
import type { FindingStories } from '../core/services/finding-stories';
import type { FindingPlaces } from '../code-places/finding-places';
import { stepRange, traceToday } from '../code-places/trace-places';
import { safeLink } from '../diagnostics/finding-diagnostic';
import type { DetailsStory } from './details-input';

export class PanelStory {
  /** Why the story of a finding could not be read, by finding: said until it is read. */
  private readonly failed = new Map<string, string>();

  constructor(
    private readonly stories: FindingStories,
    private readonly places: FindingPlaces,
    private readonly errorMessage: (error: unknown) => string,
  ) {}

  /** Reads the story (again, when the finding changed since); resolves when read or failed. */
  async load(finding: Finding): Promise<void> {
    const key = keyOf(finding);
    try {
      const answer = await this.stories.get(finding);
      if (answer) this.failed.delete(key);
      else this.failed.set(key, t('not signed in'));
    } catch (error) {
      this.failed.set(key, this.errorMessage(error));
    }
  }

  /** The story as far as it is known now. */
  view(finding: Finding): DetailsStory {
    const answer = this.stories.peek(finding);
    if (!answer) {
      const problem = this.failed.get(keyOf(finding));
      return problem === undefined ? { state: 'loading' } : { state: 'failed', problem };
    }
    if (answer.kind === 'notAvailable') return { state: 'notAvailable', problem: String(answer.unavailable.status) };
    const { story } = answer;
    return { state: 'read', story, ...(story.trace ? { trace: traceToday(this.places, finding, story.trace) } : {}) };
  }

  /** Opens step `index` of the finding's trace: in the editor where its code is, else its platform link. */
  async openStep(finding: Finding, index: number, column: vscode.ViewColumn | undefined): Promise<void> {
    const answer = this.stories.peek(finding);
    const trace = answer?.kind === 'story' ? answer.story.trace : undefined;
    const step = trace && traceToday(this.places, finding, trace)[index];
    if (!step) return;
    if (step.kind === 'here' && step.uri) {
      const range = stepRange(step);
      await showCode(step.uri, range, { preview: true, viewColumn: column });
      return;
    }
    const link = safeLink(step.url);
    if (link) await vscode.env.openExternal(link);
  }
}

function keyOf(finding: Finding): string {
  return `${finding.issueType}:${finding.id}`;
}
