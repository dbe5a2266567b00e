/**
 * Asking the platform for a fix pull request (docs/platform-api.md, "One finding's story and its
 * fix"), and reading its answer: `{ success, errors: [{ errorType, message }] }`. `success` means
 * the job was accepted, not that a pull request exists: the platform opens it later, and the
 * finding's story tells what became of it (`fixPullRequestOf`).
 */
import { said, t } from '../l10n';
import { PlatformError, truncateSnippet } from './errors';
import { asObject, readBoolean, readString, type JsonObject } from './decodeRead';

/** Each `AUTOFIX_ERROR_TYPE_…` the platform names, and the refusal it is read as. */
export const AUTOFIX_REFUSAL_OF = {
  ISSUE_NOT_FOUND: 'issueNotFound',
  UNSUPPORTED_ISSUE_TYPE: 'unsupportedIssueType',
  AUTOFIX_NOT_ENABLED: 'autofixNotEnabled',
  INVALID_REPOSITORY: 'invalidRepository',
  NO_WRITE_ACCESS: 'noWriteAccess',
  SCM_CONFIG_NOT_FOUND: 'scmConfigNotFound',
  SCM_TOKEN_FAILED: 'scmTokenFailed',
  CODE_ACCESS_NOT_GRANTED: 'codeAccessNotGranted',
  CREDITS_EXHAUSTED: 'creditsExhausted',
  IN_FLIGHT_FIX_PENDING: 'inFlightFixPending',
  NO_RECOMMENDED_UPGRADE: 'noRecommendedUpgrade',
  INVALID_ISSUE_STATE: 'invalidIssueState',
} as const;

/**
 * Why no fix pull request is on its way: one of the platform's error types, `notAvailable` (the
 * deployment does not offer the call: 404), or `other` (a type this extension does not know, or
 * a refusal without any).
 */
export type AutofixRefusal = (typeof AUTOFIX_REFUSAL_OF)[keyof typeof AUTOFIX_REFUSAL_OF] | 'notAvailable' | 'other';

/** What each refusal tells the user, in plain words with what to do (in the display language, read when said). */
export const AUTOFIX_SENTENCES: Readonly<Record<AutofixRefusal, string>> = {
  get issueNotFound() {
    return t('The platform no longer has this finding, so it cannot fix it. Refresh to see the findings it has now.');
  },
  get unsupportedIssueType() {
    return t('The platform does not make fix pull requests for this kind of finding.');
  },
  get autofixNotEnabled() {
    return t("Autofix is not enabled for this organization. An administrator can turn it on in the platform's settings.");
  },
  get invalidRepository() {
    return t("The platform cannot open a pull request in this finding's repository: it does not know the repository, or the repository is archived.");
  },
  get noWriteAccess() {
    return t('The platform may not push to this repository. Give its code host app write access to the repository, then ask again.');
  },
  get scmConfigNotFound() {
    return t("The platform has no connection to this repository's code host. An administrator can set one up in the platform's settings.");
  },
  get scmTokenFailed() {
    return t('The platform could not sign in to the code host: its access there may have expired or been revoked. An administrator can renew it.');
  },
  get codeAccessNotGranted() {
    return t(
      "The organization has not allowed the platform to read its code, which writing a fix needs. An administrator can allow it in the platform's settings.",
    );
  },
  get creditsExhausted() {
    return t('The organization has used all of its AI credits, so no fix can be written now.');
  },
  get inFlightFixPending() {
    return t('A fix pull request for this finding is already being prepared. It appears on the finding when the platform opens it.');
  },
  get noRecommendedUpgrade() {
    return t('There is no version of this dependency to upgrade to that fixes the vulnerability.');
  },
  get invalidIssueState() {
    return t('This finding cannot be fixed in its current state: it may already be fixed, ignored or removed.');
  },
  get notAvailable() {
    return t("This deployment does not offer fix pull requests, or the token's role may not ask for them.");
  },
  get other() {
    return t('The platform did not accept the request for a fix pull request.');
  },
};

/** One error of a refused request. */
export interface AutofixError {
  readonly refusal: AutofixRefusal;
  /** The platform's error type as sent. */
  readonly errorType?: string;
  /** The platform's own message, for the log and a tooltip. */
  readonly message?: string;
}

export type AutofixOutcome =
  /** The platform took the job: the pull request appears on the finding later. */
  | { readonly kind: 'accepted' }
  | {
      readonly kind: 'refused';
      /** The first error's refusal (what the sentence is about). */
      readonly refusal: AutofixRefusal;
      /** One plain sentence for the user. */
      readonly sentence: string;
      /** Every error the platform gave. */
      readonly errors: readonly AutofixError[];
      /** The HTTP status, when the refusal came with one other than 200. */
      readonly status?: number;
    };

/** The refusal of an error type, with or without its `AUTOFIX_ERROR_TYPE_` prefix. */
export function autofixRefusalOf(errorType: string | undefined): AutofixRefusal {
  const name = errorType?.toUpperCase().replace(/^AUTOFIX_ERROR_TYPE_/, '');
  return name !== undefined && Object.hasOwn(AUTOFIX_REFUSAL_OF, name) ? AUTOFIX_REFUSAL_OF[name as keyof typeof AUTOFIX_REFUSAL_OF] : 'other';
}

/** The outcome of a 2xx answer. Protobuf JSON leaves out `false`: no `success` is not accepted. */
export function decodeAutofixAnswer(body: unknown): AutofixOutcome {
  const o = asObject(body);
  if (!o)
    throw new PlatformError(
      'invalidResponse',
      said("The platform's answer to the fix pull request is not an object; report it with the log (AppSec: Show Logs)."),
    );
  if (readBoolean(o.success) === true) return { kind: 'accepted' };
  const raw = o.errors;
  const errors = (Array.isArray(raw) ? (raw as unknown[]) : [])
    .map(asObject)
    .filter((e): e is JsonObject => e !== undefined)
    .map((e) => {
      const errorType = readString(e.errorType ?? e.error_type);
      const message = readString(e.message);
      return { refusal: autofixRefusalOf(errorType), ...(errorType ? { errorType } : {}), ...(message ? { message } : {}) };
    });
  return refused(errors);
}

/**
 * A refusal read from an error answer's text (a 4xx may carry the same body as a refused 200):
 * every `AUTOFIX_ERROR_TYPE_…` it names, or undefined when it names none.
 */
export function autofixRefusalInText(text: string | undefined, status: number): AutofixOutcome | undefined {
  const types = [...new Set(text?.match(/AUTOFIX_ERROR_TYPE_[A-Z_]+/g) ?? [])];
  if (types.length === 0) return undefined;
  return { ...refused(types.map((errorType) => ({ refusal: autofixRefusalOf(errorType), errorType }))), status };
}

/** The refusal of a deployment without the call. */
export function autofixNotAvailable(status: number, detail: string): AutofixOutcome {
  return { ...refused([{ refusal: 'notAvailable', message: detail }]), status };
}

function refused(errors: readonly AutofixError[]): Extract<AutofixOutcome, { kind: 'refused' }> {
  const first = errors[0];
  const refusal = first?.refusal ?? 'other';
  // A type this extension does not know says only what the platform said about it.
  const sentence =
    refusal !== 'other'
      ? AUTOFIX_SENTENCES[refusal]
      : first?.message
        ? t('The platform did not accept the request for a fix pull request: {0}', truncateSnippet(first.message, 200))
        : first?.errorType
          ? t('The platform did not accept the request for a fix pull request ({0}).', truncateSnippet(first.errorType, 80))
          : AUTOFIX_SENTENCES.other;
  return { kind: 'refused', refusal, sentence, errors };
}
