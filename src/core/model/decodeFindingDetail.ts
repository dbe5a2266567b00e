import { decodeFinding } from './decodeFinding';
import { decodeExternalTicket } from './decodeTicket';
import { asObject, readNumber, readSafeInteger, readString, readStringArray, readTimestamp, type JsonObject } from './decodeRead';
import { StringInterner } from './interner';
import type { ListIssueType } from './types';
import type { FindingDetail } from './finding-detail';

/**
 * The whole finding, for a detail view. Built on {@link decodeFinding}, so it is skipped (undefined)
 * for exactly the same malformed input. Only a handful are decoded at a time, so the interner is
 * optional here.
 */
export function decodeFindingDetail(raw: unknown, issueType: ListIssueType, interner = new StringInterner()): FindingDetail | undefined {
  const finding = decodeFinding(raw, issueType, interner);
  const o = asObject(raw);
  if (!finding || !o) {
    return undefined;
  }
  return {
    ...finding,
    syntacticId: readString(o.syntactic_id),
    matchBasedId: readString(o.match_based_id),
    categories: readStringArray(o.categories),
    state: readString(o.state),
    triageState: readString(o.triage_state),
    triageComment: readString(o.triage_comment),
    triagedAt: readTimestamp(o.triaged_at),
    createdAt: readTimestamp(o.created_at),
    stateUpdatedAt: readTimestamp(o.state_updated_at),
    firstSeenScanId: readSafeInteger(o.first_seen_scan_id),
    repositoryUrl: readString(asObject(o.repository)?.url),
    rule: decodeRule(o.rule),
    externalTicket: decodeExternalTicket(o.external_ticket),
    reviewComments: readObjects(o.review_comments).map((c) => ({
      discussionId: readString(c.external_discussion_id) ?? readString(c.externalDiscussionId),
      noteId: readSafeInteger(c.external_note_id ?? c.externalNoteId),
    })),
    clickToFixPrUrls: readObjects(o.click_to_fix_prs)
      .map((pr) => readString(pr.url))
      .filter((url): url is string => url !== undefined),
    clickToFixFailures: readObjects(o.click_to_fix_failures).map((failure) => ({
      createdAt: readTimestamp(failure.created_at),
      reason: readString(failure.reason),
    })),
    assistant: decodeAssistant(o.assistant),
    reachableCondition: readString(o.reachable_condition),
    epss: decodeEpss(o.epss_score),
  };
}

function decodeRule(raw: unknown): FindingDetail['rule'] {
  const rule = asObject(raw);
  if (!rule) {
    return undefined;
  }
  return {
    name: readString(rule.name),
    message: readString(rule.message),
    category: readString(rule.category),
    confidence: readString(rule.confidence),
    // The service spells these in snake_case, the spec in camelCase: read whichever came.
    cweNames: readStringArray(rule.cwe_names ?? rule.cweNames),
    owaspNames: readStringArray(rule.owasp_names ?? rule.owaspNames),
    subcategories: readStringArray(rule.subcategories),
    vulnerabilityClasses: readStringArray(rule.vulnerability_classes ?? rule.vulnerabilityClasses),
  };
}

function decodeAssistant(raw: unknown): FindingDetail['assistant'] {
  const assistant = asObject(raw);
  if (!assistant) {
    return undefined;
  }
  const autofix = asObject(assistant.autofix);
  const autotriage = asObject(assistant.autotriage);
  const component = asObject(assistant.component);
  const guidance = asObject(assistant.guidance);
  const explanation = asObject(assistant.rule_explanation);
  return {
    autofixCode: readString(autofix?.fix_code),
    autofixExplanation: readString(autofix?.explanation),
    autotriageVerdict: readString(autotriage?.verdict),
    autotriageReason: readString(autotriage?.reason),
    componentRisk: readString(component?.risk),
    componentTag: readString(component?.tag),
    guidanceSummary: readString(guidance?.summary),
    guidanceInstructions: readString(guidance?.instructions),
    ruleExplanationSummary: readString(explanation?.summary),
  };
}

function decodeEpss(raw: unknown): FindingDetail['epss'] {
  const epss = asObject(raw);
  return epss ? { score: readNumber(epss.score), percentile: readNumber(epss.percentile) } : undefined;
}

function readObjects(raw: unknown): JsonObject[] {
  return Array.isArray(raw) ? raw.map(asObject).filter((o): o is JsonObject => o !== undefined) : [];
}
