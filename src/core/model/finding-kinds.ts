/**
 * The kinds of finding the platform holds, each described once: code (with the AI analysis's
 * findings among them), supply chain and secrets. Every other module asks a kind what it can do
 * (`kindOf(finding).traced`) or iterates over `KINDS`, instead of comparing `issueType` with a
 * literal, so a kind the platform adds is one more entry here and in its decoder. A lint rule
 * refuses `x.issueType === '…'` and a switch on it (CONTRIBUTING, "A new kind of finding"); the
 * decoders read the platform's own `issue_type` text, before it is a kind.
 */
import { t } from '../l10n';
import { ISSUE_TYPES, type IssueType, type ListIssueType } from './types';

/** The products as the platform sells them: the AI analysis is licensed apart from Code. */
export type FindingKind = IssueType | 'ai';

export const FINDING_KINDS: readonly FindingKind[] = ['sast', 'ai', 'sca', 'secrets'];

/** The product names users know from the platform's license page. */
export const KIND_PRODUCTS: Readonly<Record<FindingKind, string>> = { sast: 'Code', ai: 'AI analysis', sca: 'Supply Chain', secrets: 'Secrets' };

export interface KindDescriptor {
  readonly issueType: IssueType;
  /** The section of the platform's web UI its findings' pages are under (`/orgs/<slug>/<section>/<id>`). */
  readonly webSection: string;
  /**
   * How the platform lists it: by `issue_type` on the findings list (400 then means the
   * deployment does not know the type), or on the secrets list, which takes no ref and answers
   * by the deployment's id.
   */
  readonly list: { readonly issueType: ListIssueType } | 'secrets';
  /** The AI analysis marks some of its findings: their list is asked beside its own. */
  readonly aiAnalysed: boolean;
  /** Its findings follow data through the code: a trace, Show Trace, the story's trace section. */
  readonly traced: boolean;
  /** Its findings name a rule the platform filters by (`rules`), and the Policy Rules view lists. */
  readonly ruled: boolean;
  /** Its findings name a package at a version: the dependency inventory, upgrades, advisories. */
  readonly packages: boolean;
  /** The platform's Autofix opens a pull request for its findings. */
  readonly fixPullRequests: boolean;
  /** The codicon of its node in the Projects tree. */
  readonly icon: string;
  /** The word for it in English, for the log and the agent ("a supply-chain finding"). */
  readonly englishWord: string;
  /** Its findings in English, for the log and the agent ("supply-chain findings"). */
  readonly englishPlural: string;
  /** Its node's label in the display language (getters, these three: read when shown, never at import). */
  readonly label: string;
  /** Its findings as a sentence names them ("supply-chain findings"). */
  readonly noun: string;
  /** One finding of it as a sentence names it ("supply-chain finding"). */
  readonly nounOne: string;
  /** Where a rule of its findings is documented, for SARIF's `helpUri`; undefined when nowhere. */
  helpUri(ruleId: string): string | undefined;
}

const CODE: KindDescriptor = {
  issueType: 'sast',
  webSection: 'findings',
  list: { issueType: 'sast' },
  aiAnalysed: true,
  traced: true,
  ruled: true,
  packages: false,
  fixPullRequests: true,
  icon: 'code',
  englishWord: 'code',
  englishPlural: 'code findings',
  get label() {
    return t('Code findings');
  },
  get noun() {
    return t('code findings');
  },
  get nounOne() {
    return t('code finding');
  },
  helpUri: (ruleId) => `https://semgrep.dev/r/${ruleId.split('/').map(encodeURIComponent).join('/')}`,
};

const SUPPLY_CHAIN: KindDescriptor = {
  issueType: 'sca',
  webSection: 'supply-chain',
  list: { issueType: 'sca' },
  aiAnalysed: false,
  traced: false,
  ruled: false,
  packages: true,
  fixPullRequests: true,
  icon: 'package',
  englishWord: 'supply-chain',
  englishPlural: 'supply-chain findings',
  get label() {
    return t('Supply-chain findings');
  },
  get noun() {
    return t('supply-chain findings');
  },
  get nounOne() {
    return t('supply-chain finding');
  },
  helpUri: (advisory) => (/^(CVE|GHSA)-/i.test(advisory) ? `https://osv.dev/vulnerability/${encodeURIComponent(advisory)}` : undefined),
};

const SECRETS: KindDescriptor = {
  issueType: 'secrets',
  webSection: 'secrets',
  list: 'secrets',
  aiAnalysed: false,
  traced: false,
  ruled: false,
  packages: false,
  fixPullRequests: false,
  icon: 'key',
  englishWord: 'secret',
  englishPlural: 'secrets findings',
  get label() {
    return t('Secrets');
  },
  get noun() {
    return t('secrets findings');
  },
  get nounOne() {
    return t('secrets finding');
  },
  helpUri: () => undefined,
};

/** Every kind, in the order the views list them. */
export const KINDS: Readonly<Record<IssueType, KindDescriptor>> = { sast: CODE, sca: SUPPLY_CHAIN, secrets: SECRETS };

/** The kind of a finding (or of a query, a node: anything with an issue type). */
export function kindOf(of: IssueType | { readonly issueType: IssueType }): KindDescriptor {
  return KINDS[typeof of === 'string' ? of : of.issueType];
}

/** The kinds that can do something, in the order the views list them ("which kinds have a trace"). */
export function kindsWhere(can: (kind: KindDescriptor) => boolean): IssueType[] {
  return ISSUE_TYPES.filter((issueType) => can(KINDS[issueType]));
}

/** One value for each kind, in the order the views list them (each kind's query of a place). */
export function perKind<T>(valueOf: (issueType: IssueType) => T): Record<IssueType, T> {
  return Object.fromEntries(ISSUE_TYPES.map((issueType) => [issueType, valueOf(issueType)])) as Record<IssueType, T>;
}

/** Whether a text names a kind of finding (an argument, a link, a cached entry). */
export function isIssueType(value: unknown): value is IssueType {
  return typeof value === 'string' && Object.hasOwn(KINDS, value);
}
