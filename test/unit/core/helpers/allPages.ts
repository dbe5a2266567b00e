// Every page of a paged call, gathered: src reads pages as they come; a test compares the whole.
// The call is made inside, so a request refused before any page (a bad page size) is a rejection.
import type { PolicyRulesPage } from '../../../../src/core/model/decodePolicy';
import type { FindingsPage } from '../../../../src/core/model/decodeFinding';

export async function allFindings(call: () => AsyncIterable<FindingsPage>): Promise<FindingsPage> {
  const findings: FindingsPage['findings'] = [];
  let skipped = 0;
  for await (const page of call()) {
    findings.push(...page.findings);
    skipped += page.skipped;
  }
  return { findings, skipped };
}

export async function allPolicyRules(call: () => AsyncIterable<PolicyRulesPage>): Promise<PolicyRulesPage> {
  let policy: PolicyRulesPage['policy'];
  const rules: PolicyRulesPage['rules'][number][] = [];
  let skipped = 0;
  for await (const page of call()) {
    policy ??= page.policy;
    rules.push(...page.rules);
    skipped += page.skipped;
  }
  return { policy, rules, skipped };
}
