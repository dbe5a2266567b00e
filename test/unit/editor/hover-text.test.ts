// The hover's markdown: server text and branch names are inert text; only our bold name, theme
// icons and the three command links act.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { aboutFindingLines, HOVER_COMMANDS, placeNoteLines } from '../../../src/editor/hover-text';
import { sastFinding } from '../services/finding-fixtures';

const ATTACK = '[x](command:workbench.action.openSettings) <img src=x> *bold* `code`';
/** Markdown that acts: a link, an image, raw HTML, emphasis or code that is not preceded by a backslash. */
const ACTIVE = /(^|[^\\])(\[|<|\*|`)/;

void describe("the hover's text", () => {
  void test('a rule name, severity, status and guidance from the platform are escaped; the links are ours', () => {
    const finding = { ...sastFinding({ id: 7 }), ruleName: ATTACK, severity: ATTACK, status: ATTACK };
    const [head, guidance, links] = aboutFindingLines(finding, `line one\n${ATTACK}`);
    assert.match(head ?? '', /^\*\*.*\*\* · /);
    assert.doesNotMatch((head ?? '').slice(2, -2).replace(/\*\* · /g, ''), ACTIVE);
    assert.doesNotMatch(guidance ?? '', ACTIVE);
    assert.ok(!(guidance ?? '').includes('\n'), 'the guidance is one line');
    const ref = encodeURIComponent(JSON.stringify([{ findingRef: { issueType: 'sast', id: 7 } }]));
    assert.deepEqual(
      [...(links ?? '').matchAll(/\]\(command:([\w.]+)\?([^)]*)\)/g)].map((m) => [m[1], m[2]]),
      HOVER_COMMANDS.map((c) => [c, ref]),
    );
    assert.equal(aboutFindingLines(sastFinding({}), undefined).length, 2, 'no guidance, no guidance line');
  });

  void test('findings that share a line are told apart: a secret by its service and validation, an AI finding marked', () => {
    const secret = sastFinding({ issueType: 'secrets', ruleName: 'AWS', severity: 'critical', secret: { service: 'AWS', validation: 'confirmed_valid' } });
    assert.equal(aboutFindingLines(secret, undefined)[0], String.raw`**AWS secret** · critical · valid secret`);
    const ai = sastFinding({ ruleName: 'ai.session.token-not-revocable', severity: 'medium', ai: {} });
    assert.equal(aboutFindingLines(ai, undefined)[0], String.raw`**token\-not\-revocable \(AI\)** · medium`);
  });

  void test("the story, once read: blocks pull requests, the trace's length (none: no Show Trace), Request Exception instead of Ignore", () => {
    const finding = sastFinding({ id: 9 });
    const commands = (lines: string[]): string[] => [...(lines.at(-1) ?? '').matchAll(/\[([^\]]+)\]\(command:([\w.]+)\?/g)].map((m) => `${m[1]} ${m[2]}`);
    const read = aboutFindingLines(finding, undefined, { blocking: true, traceSteps: 3, mayIgnore: true });
    assert.match(read[0] ?? '', / · blocks pull requests$/);
    assert.deepEqual(commands(read), [
      'Show Details appsecFindings.showDetails',
      'Show Trace (3 steps) appsecFindings.showTrace',
      'Fix with Agent appsecFindings.fixWithAgent',
      'Ignore… appsecFindings.ignore',
      'Open in Platform appsecFindings.openInPlatform',
    ]);
    const limited = commands(aboutFindingLines(finding, undefined, { traceSteps: 0, mayIgnore: false }));
    assert.ok(!limited.some((c) => c.includes('showTrace')), 'no trace, no Show Trace');
    assert.ok(!limited.some((c) => c.includes('appsecFindings.ignore')));
    assert.ok(limited.includes('Request Exception in Platform appsecFindings.openInPlatform'));
    const sca = commands(aboutFindingLines(sastFinding({ issueType: 'sca' }), undefined));
    assert.ok(!sca.some((c) => c.includes('showTrace')), 'only code findings have a trace');
  });

  void test('the status is said only when it is not open (an open finding is what a squiggle means)', () => {
    assert.doesNotMatch(aboutFindingLines(sastFinding({ status: 'open' }), undefined)[0] ?? '', /open/);
    assert.match(aboutFindingLines(sastFinding({ status: 'reviewing' }), undefined)[0] ?? '', / · reviewing$/);
  });

  void test('a branch name with markdown in it is shown as written; the icons stay icons', () => {
    const [branch, drift] = placeNoteLines({
      novelty: { count: 1, total: 1, primary: 'feature/*_x_[y](command:z)' },
      drift: 'Placed at its line in <b>here</b>.',
    });
    assert.equal(branch, String.raw`$(git-branch) AppSec: New on this branch\: feature\/\*\_x\_\[y\]\(command\:z\) does not have this finding\.`);
    assert.equal(drift, String.raw`$(history) AppSec: Placed at its line in \<b\>here\<\/b\>\.`);
    assert.match(
      placeNoteLines({ novelty: { count: 2, total: 3, primary: 'main' } })[0] ?? '',
      /2 of the 3 findings here are new on this branch\\: main does not have them/,
    );
    assert.deepEqual(placeNoteLines({ novelty: { count: 0, total: 3, primary: 'main' } }), [], 'nothing new, nothing said');
  });
});
