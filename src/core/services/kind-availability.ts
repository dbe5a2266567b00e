/**
 * What the deployment has: organizations license the platform's products separately (Code, the
 * AI analysis, Supply Chain, Secrets), and a token's role limits what it may read. A product's
 * list that answers 403 or 404 (or 400 for an `issue_type` the deployment does not know) while
 * the token itself works is "not available for this deployment": a state, not an error. It is
 * never retried within a refresh and never announced; the next refresh asks again, as a
 * deployment can gain a product.
 */
import type { Unavailable } from '../model/errors';
import { Emitter, type Disposable } from '../events';
import { said, t } from '../l10n';

// Decided below the services, where the client reads one finding's story the same way.
export { unavailableOf, type Unavailable } from '../model/errors';

// Each kind of finding is described once, below the services.
import { FINDING_KINDS, type FindingKind } from '../model/finding-kinds';

export { FINDING_KINDS, KIND_PRODUCTS, type FindingKind } from '../model/finding-kinds';

/** "not available for this deployment (404)", the words every view uses; in English (`'english'`) for the log and the agent. */
export function unavailableText(u: Unavailable, language: 'user' | 'english' = 'user'): string {
  const words = said('not available for this deployment ({0})', u.status);
  return language === 'english' ? words.english : words.text;
}

/** What to check, for tooltips and Check Connection (`product`: "Secrets", "Policies", …). */
export function unavailableAdvice(product: string, u: Unavailable): string {
  return u.status === 403
    ? t(
        "The platform answered {0}: the token's role may not read it, or the organization does not license {1}. Check the product's license on the platform, or the token's role. The next refresh asks again.",
        u.status,
        product,
      )
    : t(
        "The platform answered {0}: the organization may not license {1}, or the token's role may not read it. Check the product's license on the platform, or the token's role. The next refresh asks again.",
        u.status,
        product,
      );
}

/** A kind whose availability changed (`unavailable` undefined: it answered again). */
export interface AvailabilityChange {
  readonly kind: FindingKind;
  readonly unavailable?: Unavailable;
}

/** Per kind, what the latest answer said: available (undefined) or not. Cleared with the session. */
export class KindAvailability implements Disposable {
  private readonly missing = new Map<FindingKind, Unavailable>();
  /** Fires with the change, or with undefined when everything was forgotten (sign-out). */
  private readonly changed = new Emitter<AvailabilityChange | undefined>();
  readonly onDidChange = this.changed.event;

  /** Records the latest answer for a kind; fires only when what is known changed. */
  note(kind: FindingKind, unavailable: Unavailable | undefined): void {
    const before = this.missing.get(kind);
    if (before?.status === unavailable?.status) return;
    if (unavailable) this.missing.set(kind, unavailable);
    else this.missing.delete(kind);
    this.changed.fire({ kind, ...(unavailable ? { unavailable } : {}) });
  }

  unavailable(kind: FindingKind): Unavailable | undefined {
    return this.missing.get(kind);
  }

  /** The kinds the deployment answered for, or has not been asked about yet. */
  offered(): FindingKind[] {
    return FINDING_KINDS.filter((kind) => !this.missing.has(kind));
  }

  clear(): void {
    if (this.missing.size === 0) return;
    this.missing.clear();
    this.changed.fire(undefined);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
