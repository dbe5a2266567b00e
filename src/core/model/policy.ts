/**
 * Policies and their rules (docs/platform-api.md, spec 2.1 and 2.2), for the Policy Rules view.
 */
import type { Open } from './types';

export type PolicyMode = Open<'MODE_MONITOR' | 'MODE_COMMENT' | 'MODE_BLOCK' | 'MODE_DISABLED'>;

export interface Policy {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  readonly isDefault: boolean;
  readonly productType?: string;
}

export interface PolicyRule {
  readonly id: string;
  /** Dotted rule identifier. */
  readonly path: string;
  readonly mode: PolicyMode;
  readonly severity?: string;
  readonly category?: string;
  readonly confidence?: string;
  readonly source?: string;
  readonly languages: readonly string[];
  readonly cweCategories: readonly string[];
  readonly owaspCategories: readonly string[];
  readonly url?: string;
  readonly lastChangeAt?: Date;
  readonly lastChangeBy?: string;
}
