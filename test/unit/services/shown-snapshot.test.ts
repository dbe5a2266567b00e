// What Problems showed, kept for the next start: it reads back exactly as written (links that end
// in a finding's number included), and anything damaged or of another version is refused whole.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeShownInSlices, encodeShownInSlices, SHOWN_VERSION, type ShownDiagnostic, type ShownReader } from '../../../src/core/services/shown-snapshot';

const asIs = (d: ShownDiagnostic): ShownDiagnostic => d;
/** Copies each record (the reader is handed records it must not keep). */
const reader: ShownReader<[string, ShownDiagnostic[]], ShownDiagnostic> = {
  diagnostic: (r) => JSON.parse(JSON.stringify(r)) as ShownDiagnostic,
  file: (uri, diagnostics) => [uri, diagnostics],
};

const files: [string, ShownDiagnostic[]][] = [
  [
    'file:///work/app/src/a.py',
    [
      { range: [0, 0, 0, 12], severity: 0, message: 'SQL built from input', code: 'python.sqli', target: 'https://semgrep.dev/orgs/acme/findings/1234' },
      { range: [9, 4, 11, 0], severity: 1, message: 'SQL built from input', code: 'python.sqli', target: 'https://semgrep.dev/orgs/acme/findings/1235' },
      // A number with a leading zero, a query and no number: each kept as written.
      { range: [2, 0, 2, 1], severity: 2, message: 'é 漢字 🙂', code: 'x', target: 'https://example.com/runs/007' },
      { range: [3, 0, 3, 1], severity: 3, message: 'hint', code: '42', target: 'https://example.com/f?id=5' },
      { range: [4, 0, 4, 1], severity: 1, message: 'no link', code: 'plain' },
    ],
  ],
  [
    'file:///work/app/poetry.lock',
    [
      {
        range: [120, 0, 120, 30],
        severity: 0,
        message: 'lodash: prototype pollution',
        code: 'CVE-2021-23337',
        target: 'https://semgrep.dev/orgs/acme/supply-chain/9',
        related: { uri: 'file:///work/app/src/a.py', range: [7, 2, 7, 9], message: 'used here' },
      },
    ],
  ],
];

void describe('what Problems showed, kept on disk', () => {
  test('reads back exactly as written', async () => {
    const text = await encodeShownInSlices(files, asIs);
    assert.deepEqual(await decodeShownInSlices(text, reader), files);
    // Shared strings are kept once: the message of the first two is in the text once.
    assert.equal(text.split('SQL built from input').length, 2);
  });

  test('many files read back, a segment per turn', async () => {
    const many: [string, ShownDiagnostic[]][] = Array.from({ length: 300 }, (_, i) => [
      `file:///w/f${i}.py`,
      Array.from({ length: 40 }, (_, j) => ({
        range: [j, 0, j, 3] as const,
        severity: j % 4,
        message: `m${j % 7}`,
        code: `r${i % 5}`,
        target: `https://semgrep.dev/orgs/acme/findings/${i * 100 + j}`,
      })),
    ]);
    const text = await encodeShownInSlices(many, asIs);
    assert.ok(text.split('\n').length > 3, 'in several segments, each parsed in a turn of its own');
    assert.deepEqual(await decodeShownInSlices(text, reader), many);
  });

  test('anything damaged or of another version is refused whole', async () => {
    const text = await encodeShownInSlices(files, asIs);
    type Head = { version: number; segments: number; strings: unknown[] };
    type Segment = [number, number[]][];
    const edited = (change: (head: Head, segments: Segment[]) => void): string => {
      const [headLine, ...segmentLines] = text.split('\n');
      const head = JSON.parse(headLine) as Head;
      const segments = segmentLines.map((line) => JSON.parse(line) as Segment);
      change(head, segments);
      return [JSON.stringify(head), ...segments.map((segment) => JSON.stringify(segment))].join('\n');
    };
    // Both files are in the one segment of this small snapshot.
    const bad = [
      '',
      text.slice(0, text.length - 5),
      '[]',
      'null',
      text.split('\n')[0],
      edited((head) => {
        head.version = SHOWN_VERSION + 1;
      }),
      edited((head) => {
        head.segments += 1;
      }), // a segment missing (cut off between lines)
      edited((_, s) => {
        s[0][0][1].pop();
      }), // a cut-off diagnostic
      edited((_, s) => {
        s[0][0][1][5] = 999;
      }), // a message that is not in the table
      edited((_, s) => {
        s[0][0][1][4] = 7;
      }), // no such severity
      edited((_, s) => {
        s[0][0][1][2] = -1;
      }), // a range ending before it starts
      edited((_, s) => {
        s[0][0][1][0] = 1.5;
      }),
      edited((_, s) => {
        s[0][0][0] = 999;
      }), // a file that is not in the table
      edited((head) => {
        head.strings[0] = 5;
      }),
      edited((_, s) => {
        s[0][1][1][9] = 999;
      }), // a related place that is not in the table
    ];
    for (const broken of bad) assert.equal(await decodeShownInSlices(broken, reader), undefined, broken.slice(0, 80));
  });
});
