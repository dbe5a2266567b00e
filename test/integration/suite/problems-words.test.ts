// Problems says what the tree says of AI findings and secrets, in words its filter box finds.
// VS Code's Problems filter box matches the text typed in it against each diagnostic's message
// (a contiguous match, case ignored), its source and its code. The extension's words are in the
// message, and every diagnostic of ours has the one source, "AppSec"; so this reads the message
// and source of each diagnostic the extension host holds (`languages.getDiagnostics`) and
// filters them as the box does.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { addAiAndSecrets, type WireAiSastFinding, type WireSecretFinding } from '../../platform/secrets-and-ai';
import type { KnownFindingDiagnostic } from '../../../src/diagnostics/finding-diagnostic';
import { findingNodes, issueTypeNode, signedIn, type Fixture } from './fixture';
import { waitFor } from './helpers';

/** What the tree calls each validation state (its description begins with it). */
const WORDS: Record<string, string> = {
  VALIDATION_STATE_CONFIRMED_VALID: 'valid secret',
  VALIDATION_STATE_CONFIRMED_INVALID: 'invalid secret',
  VALIDATION_STATE_NO_VALIDATOR: 'not validated',
  VALIDATION_STATE_VALIDATION_ERROR: 'validation failed',
};

/** Our diagnostics whose finding is known, in every file. */
function ours(): KnownFindingDiagnostic[] {
  return vscode.languages
    .getDiagnostics()
    .flatMap(([, list]) => (list as KnownFindingDiagnostic[]).filter((d) => d.source === 'AppSec' && d.finding !== undefined));
}

/** What the Problems filter box shows for `text`, by message. */
function filtered(text: string): KnownFindingDiagnostic[] {
  return ours().filter((d) => d.message.toLowerCase().includes(text.toLowerCase()));
}

const ids = (list: readonly KnownFindingDiagnostic[]): string[] => list.map((d) => `${d.finding.issueType}:${d.finding.id}`).sort();
const sorted = (list: readonly string[]): string[] => [...list].sort();

describe('Problems words', () => {
  let f: Fixture;
  let added: { ai: WireAiSastFinding[]; secrets: WireSecretFinding[] };
  /** The added findings Problems shows: open, on the checked-out primary branch. */
  let ai: WireAiSastFinding[];
  let secrets: WireSecretFinding[];
  before(async () => {
    f = await signedIn();
    // Eight per project put a secret of each validation state on the primary branch.
    added = addAiAndSecrets(f.data, 8, [f.project.name]);
    ai = added.ai.filter((a) => a.ref === f.project.primary_branch && a.status === 'open');
    secrets = added.secrets.filter((s) => s.ref === f.project.primary_branch && s.status === 'FINDING_STATUS_OPEN');
    assert.deepEqual(sorted([...new Set(secrets.map((s) => s.validationState))]), sorted(Object.keys(WORDS)), 'a secret of each validation state');
    assert.ok(ai.length > 0, 'an open AI finding on the primary branch');
    await vscode.commands.executeCommand('appsecFindings.filterFindings', { status: 'open' });
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const expected = [...ai.map((a) => `sast:${a.id}`), ...secrets.map((s) => `secrets:${s.id}`)];
    await waitFor(
      () => {
        const shown = new Set(ids(ours()));
        return expected.every((id) => shown.has(id));
      },
      15_000,
      'the AI findings and secrets are in Problems',
    );
  });
  after(async () => {
    // The other files count findings: the fixture goes back to what it was.
    const aiIds = new Set(added.ai.map((a) => a.id));
    const secretIds = new Set(added.secrets.map((s) => s.id));
    f.data.ai_sast.splice(0, f.data.ai_sast.length, ...f.data.ai_sast.filter((a) => !aiIds.has(a.id)));
    f.data.secrets.splice(0, f.data.secrets.length, ...f.data.secrets.filter((s) => !secretIds.has(s.id)));
    await vscode.commands.executeCommand('appsecFindings.clearFilters');
    await vscode.commands.executeCommand('appsecFindings.refresh');
  });

  it('an AI finding\'s diagnostic says "AI" first, as the tree does, and filtering by "AI:" finds exactly those', async () => {
    const diagnostics = ours().filter((d) => d.finding.ai);
    assert.deepEqual(ids(diagnostics), sorted(ai.map((a) => `sast:${a.id}`)));
    for (const d of diagnostics) {
      assert.match(d.message, /^AI: /, d.message);
      assert.equal(d.source, 'AppSec');
    }
    assert.deepEqual(ids(filtered('AI:')), ids(diagnostics), 'the filter box finds the AI findings and nothing else');
    assert.deepEqual(ids(filtered('ai:')), ids(diagnostics), 'in any case');
    // The tree marks the same findings "AI" in their description.
    const inTree = async (): Promise<number> =>
      findingNodes(await issueTypeNode(f, /^Code findings$/)).filter((n) => (n.description ?? '').startsWith('AI · ')).length;
    await waitFor(async () => (await inTree()) === diagnostics.length, 10_000, `the tree marks ${diagnostics.length} findings AI`);
  });

  it("a secret's diagnostic names its validation, as the tree does, and filtering by that word finds exactly those", async () => {
    const diagnostics = ours().filter((d) => d.finding.secret);
    assert.deepEqual(ids(diagnostics), sorted(secrets.map((s) => `secrets:${s.id}`)));
    const wordOf = new Map(secrets.map((s) => [String(s.id), WORDS[s.validationState] ?? '?']));
    for (const d of diagnostics) {
      assert.ok(d.message.includes(`(${wordOf.get(String(d.finding.id)) ?? '?'})`), `${d.message} names ${wordOf.get(String(d.finding.id)) ?? '?'}`);
      assert.equal(d.source, 'AppSec');
    }
    for (const word of Object.values(WORDS)) {
      const expected = secrets.filter((s) => WORDS[s.validationState] === word).map((s) => `secrets:${s.id}`);
      // "valid secret" is inside "invalid secret" too: the opening parenthesis tells the two apart.
      assert.deepEqual(ids(filtered(`(${word}`)), sorted(expected), `filtering by "(${word}"`);
    }
    // The tree's description of each secret begins with the same word.
    const treeWords = async (): Promise<string[]> =>
      sorted(findingNodes(await issueTypeNode(f, /^Secrets$/)).map((n) => (n.description ?? '').split(' · ')[0] ?? ''));
    const problemsWords = sorted(diagnostics.map((d) => /\(([^()]+)\)$/.exec(d.message)?.[1] ?? ''));
    await waitFor(async () => JSON.stringify(await treeWords()) === JSON.stringify(problemsWords), 10_000, `the tree says ${problemsWords.join(', ')}`);
  });
});
