/**
 * Every command the extension registers. No `vscode` import, so the manifest test can check
 * that package.json declares exactly these.
 */
export const COMMAND_IDS = [
  'appsecFindings.signIn',
  'appsecFindings.signOut',
  'appsecFindings.refresh',
  'appsecFindings.filterFindings',
  'appsecFindings.clearFilters',
  'appsecFindings.groupBy',
  'appsecFindings.tagProject',
  'appsecFindings.chooseRef',
  'appsecFindings.exportSbom',
  'appsecFindings.showSbomExports',
  'appsecFindings.openInPlatform',
  'appsecFindings.openOnGitHub',
  'appsecFindings.openOnGitLab',
  'appsecFindings.openOnCodeHost',
  'appsecFindings.openFinding',
  'appsecFindings.copyFindingId',
  'appsecFindings.copyLink',
  'appsecFindings.filterBySeverity',
  'appsecFindings.filterByRule',
  'appsecFindings.filterByFile',
  'appsecFindings.showRule',
  'appsecFindings.copyRuleId',
  'appsecFindings.showLogs',
  'appsecFindings.checkConnection',
  'appsecFindings.cancelTreeLoad',
  'appsecFindings.retryTreeLoad',
  'appsecFindings.fetchScannedCommit',
] as const;

export type CommandId = (typeof COMMAND_IDS)[number];
