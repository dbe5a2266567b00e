/** The walkthrough steps' context keys, as package.json names them in `onContext:` completion events. */
export const WALKTHROUGH_KEYS = {
  signedIn: 'appsecFindings.walkthrough.signedIn',
  findingsShown: 'appsecFindings.walkthrough.findingsShown',
  filtered: 'appsecFindings.walkthrough.filtered',
  acted: 'appsecFindings.walkthrough.acted',
  exported: 'appsecFindings.walkthrough.exported',
} as const;
