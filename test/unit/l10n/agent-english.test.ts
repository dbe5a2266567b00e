// The text the agent's tools return to the model stays English whatever the display language
// (docs/l10n-glossary.md, "Runtime words: the rule"): with a German translator injected, the
// status, reason and reachability words the agent reads are English, and a refused project change
// carries the English beside the German the user reads.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findingsListText, findingText, triageConfirmation } from '../../../src/core/agent/agent-text';
import { usageText } from '../../../src/core/agent/dependency-text';
import { unavailableText } from '../../../src/core/services/kind-availability';
import { PoliciesService } from '../../../src/core/services/policies-service';
import { RuleModeInputError } from '../../../src/core/services/rule-modes';
import { formatMessage, resetTranslator, setTranslator } from '../../../src/core/l10n';
import { PlatformError } from '../../../src/core/model/errors';
import { ProjectChanges } from '../../../src/core/services/project-changes';
import { valueLabel } from '../../../src/core/services/filters';
import { ROOT } from '../helpers/package-text';
import { sastFinding, scaFinding } from '../services/finding-fixtures';

const german = JSON.parse(readFileSync(join(ROOT, 'l10n', 'bundle.l10n.de.json'), 'utf8')) as Record<string, string>;

void describe("the agent's text in a German window", () => {
  beforeEach(() => setTranslator((message, args) => formatMessage(german[message] ?? message, args), 'de'));
  afterEach(() => resetTranslator());

  void test("the user's labels are German, the agent's list and details are English", () => {
    assert.equal(valueLabel('provisionally_ignored'), 'vorläufig ignoriert', 'the German translator is in place');
    const ignored = sastFinding({ id: 7, status: 'ignored', triageReason: 'false_positive', file: 'a.py', line: 3 });
    const list = findingsListText([{ finding: sastFinding({ id: 6, status: 'provisionally_ignored', file: 'a.py', line: 1 }) }], 1, {
      project: 'acme/api',
      filters: 'all',
    });
    assert.match(list, / · provisionally ignored · message: /);
    assert.match(findingText(ignored, undefined, {}), /Status: ignored \(false positive\)/);
    const lodash = scaFinding({ package: 'lodash', version: '4.17.20', advisory: 'CVE-2021-23337', reachability: 'always_reachable' });
    assert.match(findingText(lodash, undefined, {}), /Reachability: always reachable/);
    assert.match(
      triageConfirmation([{ id: 7, name: 'python.eval' }], [], { state: 'ignored', reason: 'acceptable_risk' }),
      /\*\*ignored\*\* \(reason: acceptable risk\)/,
    );
  });

  void test("a kind the deployment lacks: German for the user, English for the agent's dependencies answer", () => {
    const unavailable = { status: 404, detail: 'Not Found' } as const;
    assert.notEqual(unavailableText(unavailable), 'not available for this deployment (404)', 'the user reads German');
    const answer = usageText({ package: 'lodash' }, { rows: [], skipped: 0, unavailable });
    assert.match(answer, /Unknown: the supply-chain inventory is not available for this deployment \(404\)\./);
  });

  void test('a refused rule mode: German for the user, English for the log', async () => {
    const policies = new PoliciesService(
      () => {
        throw new Error('nothing is sent');
      },
      () => 'dep',
    );
    const refused = await policies.setRuleMode('12', 'python.eval', 'MODE_LOUD' as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(refused instanceof RuleModeInputError);
    assert.match(refused.message, /^"MODE_LOUD" is not a mode a rule can be set to/);
    assert.notEqual(refused.text, refused.message, 'the user reads it in German');
    const unsigned = await new PoliciesService(
      () => {
        throw new Error('nothing is sent');
      },
      () => undefined,
    )
      .setRuleMode('12', 'python.eval', 'MODE_BLOCK')
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    assert.ok(unsigned instanceof RuleModeInputError);
    assert.equal(unsigned.message, "Sign in to change a rule's mode.");
  });

  void test('a refused tag or branch: German for the user, English for the log and the agent', async () => {
    const projects = { find: () => ({ id: 1, name: 'shop', tags: ['a'] }), replace: () => undefined, loadDetails: () => Promise.reject(new Error('unused')) };
    const changes = new ProjectChanges({
      slug: () => 'acme',
      api: () => {
        throw new Error('nothing is sent');
      },
      projects,
    });
    const tag = await changes.editTags('shop', { add: ['b c'] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(tag instanceof PlatformError);
    assert.match(tag.message, /^"b c" has characters a tag cannot have\./);
    assert.match(tag.text, /^„b c“|^"b c"/);
    assert.notEqual(tag.text, tag.message);
    const branch = await changes.setPrimaryBranch('shop', 'two words').then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(branch instanceof PlatformError);
    assert.match(branch.message, /^"two words" is not a branch name: it has spaces/);
    assert.notEqual(branch.text, branch.message);
  });
});
