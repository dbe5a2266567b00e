// Each tool's input schema is written once, in package.json; the checks that say in one sentence
// what is wrong are written by hand. These tests hold the two together: for every field, a value
// the schema takes is taken by the check, a value of the wrong type or outside the enum is
// refused by both, and so is a field the schema does not name.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import { DEPENDENCIES_INPUT } from '../../../src/core/agent/dependency-text';
import { TOOL_DEFINITIONS } from '../../../src/core/agent/tool-definitions';
import { TOOL_NAMES, type ToolName } from '../../../src/core/agent/tool-names';
import { FINDINGS_INPUT, FINDING_INPUT } from '../../../src/core/agent/tool-inputs';
import { TRIAGE_INPUT } from '../../../src/host/triage-input';

type Property = { type?: string | string[]; enum?: readonly unknown[]; items?: Property; minimum?: number };

const CHECKS: Record<ToolName, { check(value: unknown): { ok: boolean } }> = {
  findings: FINDINGS_INPUT,
  finding: FINDING_INPUT,
  dependencies: DEPENDENCIES_INPUT,
  triage: TRIAGE_INPUT,
};
/** The least input each tool answers, to which one field at a time is added. */
const BASE: Record<ToolName, Record<string, unknown>> = {
  findings: {},
  finding: { id: 1 },
  dependencies: { package: 'lodash' },
  triage: { findingIds: [1], issueType: 'sast', state: 'ignored' },
};
/** Values the schema cannot tell are meaningful (a link, a version). */
const MEANINGFUL: Record<string, unknown> = { url: 'https://semgrep.dev/orgs/acme/findings/7', version: '4.17.21', lower: '>=4.0.0', upper: '<4.17.21' };

function validValue(name: string, p: Property): unknown {
  if (name in MEANINGFUL) return MEANINGFUL[name];
  if (p.enum) return p.enum[0];
  const type = Array.isArray(p.type) ? p.type[0] : p.type;
  if (type === 'array') return [validValue('', p.items ?? {})];
  if (type === 'integer') return p.minimum ?? 1;
  return 'text';
}

function wrongValues(p: Property): unknown[] {
  const types = Array.isArray(p.type) ? p.type : [p.type];
  const wrong: unknown[] = [types.includes('string') ? true : 'text', { nested: 1 }];
  if (p.enum) wrong.push('not-one-of-them');
  if (p.minimum !== undefined) wrong.push(p.minimum - 1);
  return wrong;
}

void describe("the agent tools' definitions", () => {
  const ajv = new Ajv({ strict: false });

  void test('every tool is defined once, with the description and input schema package.json declares', () => {
    assert.deepEqual(TOOL_DEFINITIONS.map((d) => d.name).sort(), (Object.keys(TOOL_NAMES) as ToolName[]).sort());
    for (const d of TOOL_DEFINITIONS) {
      assert.ok(d.description.length > 40, `${d.name} has a description`);
      assert.equal(ajv.validateSchema(d.inputSchema), true, `${d.name}'s input schema is a schema`);
      assert.equal(ajv.validateSchema(d.outputSchema), true, `${d.name}'s output schema is a schema`);
    }
    assert.deepEqual(
      TOOL_DEFINITIONS.filter((d) => d.destructive).map((d) => d.name),
      ['triage'],
      'only triage writes',
    );
  });

  for (const definition of TOOL_DEFINITIONS) {
    void test(`${definition.name}: the input check and the schema take and refuse the same fields`, () => {
      const schemaTakes = ajv.compile(definition.inputSchema);
      const check = CHECKS[definition.name];
      const base = BASE[definition.name];
      assert.equal(schemaTakes(base), true, 'the schema takes the least input');
      assert.equal(check.check(base).ok, true, 'the check takes the least input');
      const properties = (definition.inputSchema.properties ?? {}) as Record<string, Property>;
      for (const [name, property] of Object.entries(properties)) {
        const taken = { ...base, [name]: validValue(name, property) };
        assert.equal(schemaTakes(taken), true, `the schema takes ${JSON.stringify(taken)}`);
        assert.equal(check.check(taken).ok, true, `the check takes ${JSON.stringify(taken)}`);
        for (const wrong of wrongValues(property)) {
          const refused = { ...base, [name]: wrong };
          assert.equal(schemaTakes(refused), false, `the schema refuses ${JSON.stringify(refused)}`);
          assert.equal(check.check(refused).ok, false, `the check refuses ${JSON.stringify(refused)}`);
        }
      }
      const unknown = { ...base, unknownField: 1 };
      assert.equal(schemaTakes(unknown), false, 'the schema refuses a field it does not name');
      assert.equal(check.check(unknown).ok, false, 'the check refuses a field the schema does not name');
    });
  }
});
