/** The benchmark's output: a table for people, `test-results/bench.json` for tools. */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export type Unit = 'ms' | 'µs' | '×' | 'bytes' | 'MiB';

export interface Figure {
  /** Stable name for the JSON file. */
  readonly key: string;
  readonly label: string;
  readonly value: number;
  readonly unit: Unit;
  /** The target: the figure passes when it is at most this. Absent for figures shown for context. */
  readonly max?: number;
  /** Every timed run, when `value` is their median. */
  readonly runs?: readonly number[];
}

export const passes = (figure: Figure): boolean => figure.max === undefined || figure.value <= figure.max;

function format(value: number, unit: Unit): string {
  const digits = unit === '×' ? 3 : (unit === 'ms' && value < 100) || unit === 'MiB' ? 1 : 0;
  const text = value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return unit === '×' ? `${text}×` : `${text} ${unit}`;
}

export function printTable(figures: readonly Figure[]): void {
  const rows = figures.map((f) => [
    f.label,
    format(f.value, f.unit),
    f.max === undefined ? '' : `≤ ${format(f.max, f.unit)}`,
    f.max === undefined ? '' : passes(f) ? 'PASS' : 'FAIL',
  ]);
  const header = ['Figure', 'Measured', 'Target', 'Result'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  // Numbers right-aligned so their magnitudes line up.
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i === 1 || i === 2 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

export async function writeJson(path: string, report: object): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(report, null, 2)}\n`);
}
