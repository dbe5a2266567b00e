// The findings page decoder src uses, without pauses between its slices (tests need no turns of
// the event loop). Like in src, it consumes the body: pass a copy to read the body again.
import { decodeFindingsPageInSlices, type DecodedFindingsPage } from '../../../../src/core/model/decodeFinding';
import { StringInterner } from '../../../../src/core/model/interner';
import type { ListIssueType } from '../../../../src/core/model/types';

export function decodePage(body: unknown, issueType: ListIssueType, interner = new StringInterner(), slice?: number): Promise<DecodedFindingsPage> {
  return decodeFindingsPageInSlices(body, issueType, interner, () => Promise.resolve(), slice);
}
