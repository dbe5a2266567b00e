// Builders of domain findings for the pure tests (grouping, diagnostic plans). Not a test file.
import type { Finding, ScaFacts, SourceRange } from '../../../src/core/model/types';

let nextId = 1;

export function sastFinding(overrides: Partial<Finding> & { file?: string; line?: number } = {}): Finding {
  const { file, line, ...rest } = overrides;
  const location: SourceRange | undefined = file === undefined ? undefined : { filePath: file, line: line ?? 1 };
  return {
    issueType: 'sast',
    id: nextId++,
    ruleName: 'python.lang.security.audit.eval',
    message: 'Avoid eval',
    severity: 'high',
    status: 'open',
    ...(location ? { location } : {}),
    ...rest,
  };
}

export function scaFinding(sca: ScaFacts, overrides: Partial<Finding> = {}): Finding {
  return {
    issueType: 'sca',
    id: nextId++,
    ruleName: 'ssc-1234',
    message: 'Vulnerable dependency',
    severity: 'critical',
    status: 'open',
    sca,
    ...overrides,
  };
}
