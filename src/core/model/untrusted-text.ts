/**
 * What the platform sends is data, never a command. VS Code turns `[label](target)` into a live
 * link in a notification (and in a progress notification), and runs a clicked `command:` target
 * with commands allowed; it draws `$(name)` as an icon in the status bar and in picker rows. The
 * platform's words reach those surfaces inside our own sentences (a refusal's "Response: …", an
 * SBOM job's reason, a project or branch name), in whatever order a language puts them, so the
 * surfaces make the whole text inert rather than the platform's part alone: our own words there
 * never carry a link or an icon of the platform's making.
 */

/**
 * The text with no link that can form: each `[label](target)` reads `label (target)`, and any
 * `](` left (a link split across the platform's words and ours) is broken by a space. The user
 * still reads every word; nothing is removed.
 */
export function inertLinks(text: string): string {
  return text.replace(/\[([^[\]]*)\]\(([^()\s]*)\)/g, (_whole, label: string, target: string) => `${label} (${target})`).replace(/\]\s*\(/g, '] (');
}

/**
 * A value shown where `$(name)` is an icon (status bar text, picker rows): the icon syntax is
 * escaped as VS Code reads an escape (`\$(name)` is drawn as the text `$(name)`).
 */
export function inertIcons(text: string): string {
  return text.replace(/\\?\$\(/g, '\\$(');
}
