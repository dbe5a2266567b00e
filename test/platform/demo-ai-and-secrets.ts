/**
 * The demo project's AI code findings and secrets, hand-made so that each one says what its line
 * does: the AI analysis flags an access-control gap and a token that cannot be revoked, and each
 * secret sits on the line that holds the key.
 */
import type { WireAiSastFinding, WireSecretFinding } from './secrets-and-ai';
import type { WireSastFinding } from './wire';

/** A place in a demo file, with the link to one of its lines at the scanned commit. */
export interface DemoPlace {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly url: (line: number) => string;
}

interface DemoAi {
  rule: string;
  message: string;
  impact: string;
  severity: string;
  at: [string, string];
}

const DEMO_AI: DemoAi[] = [
  {
    rule: 'ai.authorization.missing-ownership-check',
    severity: 'high',
    at: ['src/server.js', 'res.json(await db.findUser(req.params.id));'],
    message: "The route returns any user's record by the id in the URL and never checks that the caller may read it.",
    impact: "An attacker could read other customers' records by changing the id in the request.",
  },
  {
    rule: 'ai.session.token-not-revocable',
    severity: 'medium',
    at: ['src/auth/login.js', "jwt.sign({ sub: user.id }, JWT_SECRET, { expiresIn: '1h' })"],
    message: 'The session token cannot be revoked: it stays valid for an hour after logout or a password change.',
    impact: 'A stolen session token could be replayed after the user logged out.',
  },
];

interface DemoSecret {
  service: string;
  validation: string;
  severity: string;
  at: [string, string];
}

const DEMO_SECRETS: DemoSecret[] = [
  { service: 'AWS', validation: 'VALIDATION_STATE_CONFIRMED_VALID', severity: 'SEVERITY_CRITICAL', at: ['src/config.js', "secretAccessKey: 'wJalr"] },
  {
    service: 'Slack',
    validation: 'VALIDATION_STATE_CONFIRMED_INVALID',
    severity: 'SEVERITY_MEDIUM',
    at: ['src/config.js', "slackWebhook: 'https://hooks.slack.com/"],
  },
  { service: 'JWT', validation: 'VALIDATION_STATE_NO_VALIDATOR', severity: 'SEVERITY_HIGH', at: ['src/auth/login.js', "const JWT_SECRET = '"] },
];

/**
 * `template`: one of the project's code findings on `main`, whose common fields (repository,
 * ref, times, policy) the AI findings share; `place` locates a snippet in a demo file.
 */
export function demoAiFindings(template: WireSastFinding, place: (path: string, snippet: string) => DemoPlace, firstId: number): WireAiSastFinding[] {
  return DEMO_AI.map((d, i): WireAiSastFinding => {
    const at = place(...d.at);
    const id = firstId + i;
    return {
      ...template,
      id,
      severity: d.severity,
      status: 'open',
      state: 'unresolved',
      triage_state: 'untriaged',
      triage_reason: 'no_triage_reason',
      triage_comment: '',
      rule_name: d.rule,
      rule_message: d.message,
      rule: {
        name: d.rule,
        message: d.message,
        category: 'security',
        confidence: 'medium',
        cweNames: [],
        owaspNames: [],
        subcategories: ['vuln'],
        vulnerabilityClasses: [],
      },
      syntactic_id: `a1${String(id).padStart(30, '0')}`,
      match_based_id: `a1b0${String(id).padStart(28, '0')}`,
      location: { file_path: at.path, line: at.line, column: at.column, end_line: at.endLine, end_column: at.endColumn },
      line_of_code_url: at.url(at.line),
      review_comments: [],
      external_ticket: undefined,
      assistant: undefined,
      click_to_fix_prs: [],
      click_to_fix_failures: [],
      ai_impact: d.impact,
    };
  });
}

export function demoSecrets(
  project: { name: string; url: string },
  ref: string,
  createdAt: string,
  place: (path: string, snippet: string) => DemoPlace,
  firstId: number,
): WireSecretFinding[] {
  return DEMO_SECRETS.map((d, i): WireSecretFinding => {
    const at = place(...d.at);
    return {
      id: String(firstId + i),
      type: d.service,
      findingPath: at.path,
      findingPathUrl: at.url(at.line),
      ref,
      repository: { name: project.name, url: project.url, scmType: 'SCM_TYPE_GITHUB', visibility: 'REPOSITORY_VISIBILITY_PRIVATE' },
      severity: d.severity,
      confidence: 'CONFIDENCE_HIGH',
      status: 'FINDING_STATUS_OPEN',
      validationState: d.validation,
      mode: 'MODE_MONITOR',
      ruleHashId: `demo-${d.service.toLowerCase()}`,
      createdAt,
      updatedAt: createdAt,
    };
  });
}
