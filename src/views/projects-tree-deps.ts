/** What the trees need of the extension's services: the session, projects, findings and settings. */
import type { Event } from '../core/events';
import type { Deployment, Finding } from '../core/model/types';
import type { GroupBy } from '../core/services/grouping';
import type { FilterSelection } from '../core/services/filters';
import type { ProjectsModelDeps } from '../core/services/projects-model';
import type { ProjectsService } from '../core/services/projects-service';
import type { SessionState } from '../core/services/session';
import type { SeverityMapping } from '../core/workspace/diagnostic-plan';
import type { TodayPlace } from '../core/workspace/today-place';
import type { DependenciesService } from '../core/services/dependencies-service';
import type { DependencyFilterState } from '../core/services/dependency-view-filter';

/** The supply-chain inventory under each project, and what its lists are narrowed to. */
export interface TreeInventory {
  readonly service: Pick<DependenciesService, 'lockfiles' | 'lockfileDependencies' | 'licenseOutcomes' | 'onDidChange'>;
  readonly filter: Pick<DependencyFilterState, 'value' | 'onDidChange'>;
}

/** What the trees need of the session (the `Session` class fits). */
export interface TreeSession {
  readonly deployment: Deployment | undefined;
  readonly state: SessionState;
  /** When given, the tree refreshes itself on sign-in, sign-out and deployment changes. */
  readonly onDidChange?: Event<SessionState>;
}

export interface ProjectsTreeDeps extends Omit<ProjectsModelDeps, 'onLoadStarted' | 'projects'> {
  readonly session: TreeSession;
  readonly projects: ProjectsService;
  groupBy(): GroupBy;
  /** The default filters (`appsecFindings.defaultFilters.*`). */
  defaultSelection?(): FilterSelection;
  /** `appsecFindings.severityMapping`: tree icons show the level Problems shows. */
  severityMapping(): SeverityMapping;
  /** `appsecFindings.unreachableAsInformation`: an unreachable supply-chain finding's icon is Problems' information. */
  unreachableAsInformation?(): boolean;
  /** Where a finding is in today's code (drift mapping); undefined when not mapped. */
  todayPlace?(finding: Finding): TodayPlace | undefined;
  /** Whether a finding blocks pull requests, as far as its story (read when something needed it) says. */
  blocking?(finding: Finding): boolean;
  /** When given, each project shows its dependencies. */
  readonly inventory?: TreeInventory;
  /** Short user-facing text for an error; the detail goes to the log. */
  errorMessage(error: unknown): string;
}
