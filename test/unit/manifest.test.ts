// Checks package.json the way a reviewer of a VS Code extension would: ids, categories,
// descriptions, setting scopes that keep the token safe, and what the palette shows.
import { describe, test } from 'node:test';
import { WALKTHROUGH_KEYS } from '../../src/host/walkthrough-keys';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { COMMAND_IDS } from '../../src/core/model/command-ids';
import { LOCALES, manifestText } from './helpers/package-text';
import { meanBrightness, readPng } from './helpers/png';

interface Command {
  command: string;
  title: string;
  category?: string;
}
interface Setting {
  markdownDescription?: string;
  description?: string;
  scope?: string;
  default?: unknown;
  type?: string;
}
interface MenuItem {
  command?: string;
  submenu?: string;
  when?: string;
}
interface Manifest {
  name: string;
  displayName: string;
  publisher: string;
  main: string;
  engines: { vscode: string };
  activationEvents: string[];
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  capabilities: { untrustedWorkspaces: { supported: boolean | string } };
  contributes: {
    commands: Command[];
    configuration: { properties: Record<string, Setting> };
    menus: Record<string, MenuItem[]>;
    submenus?: { id: string; label: string }[];
    views: Record<string, { id: string }[]>;
    walkthroughs: Walkthrough[];
  };
}
interface Walkthrough {
  id: string;
  title: string;
  description: string;
  steps: { id: string; title: string; description: string; completionEvents: string[]; media: { image: Record<string, string>; altText: string } }[];
}

// As VS Code shows it: each `%key%` read from package.nls.json.
const manifest = manifestText<Manifest>();
const commands = manifest.contributes.commands;
const settings = manifest.contributes.configuration.properties;

describe('package.json', () => {
  test('names the extension as the issue asks', () => {
    assert.equal(manifest.name, 'appsec-findings');
    assert.equal(manifest.displayName, 'AppSec Findings');
    assert.equal(manifest.main, './dist/extension.js');
  });

  test('every command is prefixed, titled and in the AppSec category', () => {
    assert.ok(commands.length >= 10);
    for (const c of commands) {
      assert.match(c.command, /^appsecFindings\.[a-zA-Z]+$/, c.command);
      assert.equal(c.category, 'AppSec', `${c.command} has no AppSec category`);
      assert.ok(c.title.trim().length > 0, `${c.command} has no title`);
    }
    assert.equal(new Set(commands.map((c) => c.command)).size, commands.length, 'duplicate command ids');
  });

  test('every setting is prefixed and has a markdownDescription', () => {
    for (const [key, s] of Object.entries(settings)) {
      assert.match(key, /^appsecFindings\./, key);
      assert.ok((s.markdownDescription ?? '').length > 20, `${key} has no markdownDescription`);
      assert.ok('default' in s, `${key} has no default`);
    }
  });

  test('settings that decide where the token goes cannot be set by a workspace', () => {
    for (const key of ['appsecFindings.baseUrl', 'appsecFindings.deploymentId', 'appsecFindings.deploymentSlug', 'appsecFindings.caBundlePath']) {
      assert.ok(['application', 'machine'].includes(settings[key]?.scope ?? ''), `${key} must be application or machine scoped`);
    }
    assert.equal(settings['appsecFindings.baseUrl']?.default, 'https://semgrep.dev');
  });

  test('declares exactly the commands the extension registers', () => {
    assert.deepEqual(commands.map((c) => c.command).sort(), [...COMMAND_IDS].sort());
  });

  test('activates only after startup finished, or for a finding\'s link, never with "*"', () => {
    // Diagnostics of the open repository must appear without opening the view; onStartupFinished
    // does that without delaying VS Code's start, and activation itself does no network. A
    // vscode:// link to a finding (onUri) may come before startup has finished.
    assert.deepEqual(manifest.activationEvents, ['onStartupFinished', 'onUri']);
  });

  test('menus only name declared commands and submenus, and every submenu is in a menu', () => {
    const ids = new Set(commands.map((c) => c.command));
    const submenus = new Set((manifest.contributes.submenus ?? []).map((s) => s.id));
    for (const [menu, items] of Object.entries(manifest.contributes.menus)) {
      if (!ids.has(menu) && !menu.includes('/') && menu !== 'commandPalette') assert.ok(submenus.has(menu), `${menu} is a declared submenu`);
      for (const item of items) {
        if (item.submenu !== undefined) assert.ok(submenus.has(item.submenu), `${menu} names undeclared submenu ${item.submenu}`);
        else assert.ok(item.command !== undefined && ids.has(item.command), `${menu} names undeclared ${String(item.command)}`);
      }
    }
    for (const id of submenus) assert.ok((manifest.contributes.menus[id] ?? []).length > 0, `submenu ${id} has entries`);
  });

  test('item commands are in the palette only while such an item is selected (keyboard); node-internal ones never', () => {
    const when = new Map(manifest.contributes.menus.commandPalette.map((m) => [m.command, m.when]));
    for (const id of ['appsecFindings.cancelTreeLoad', 'appsecFindings.retryTreeLoad']) assert.equal(when.get(id), 'false', id);
    for (const id of [
      'appsecFindings.openFinding',
      'appsecFindings.copyFindingId',
      'appsecFindings.copyRuleId',
      'appsecFindings.openInPlatform',
      'appsecFindings.openOnGitHub',
      'appsecFindings.openOnGitLab',
      'appsecFindings.openOnCodeHost',
    ]) {
      assert.match(when.get(id) ?? '', /appsecFindings\.selection =~/, `${id} should follow the selection`);
    }
  });

  test('carries no placeholder link, and both packaging commands run vsce without a question', () => {
    for (const file of ['package.json', 'package.nls.json', ...LOCALES.map((locale) => `package.nls.${locale}.json`)]) {
      assert.doesNotMatch(readFileSync(file, 'utf8'), /example\.invalid/, `no placeholder address anywhere in ${file}`);
    }
    for (const key of ['repository', 'bugs', 'homepage']) assert.ok(!(key in manifest), `no ${key}: the extension has no public page to point at`);
    // Without a repository vsce asks "Do you want to continue?" on a terminal; read from a closed
    // stdin, that question ends the process with status 0 and no .vsix. The flag skips it.
    const build = readFileSync('test/integration/launch/build.mjs', 'utf8');
    const lines = {
      'npm run package': /\bvsce package\b[^"]*/.exec(manifest.scripts.package)?.[0],
      'build.mjs': /\['vsce', 'package'[^\]]*\]/.exec(build)?.[0],
    };
    for (const [where, line] of Object.entries(lines)) {
      assert.ok(line, `${where} runs vsce package`);
      assert.match(line, /--allow-missing-repository\b/, `${where}: ${line}`);
    }
    // vsce's other questions: a missing LICENSE (shipped, .vscodeignore keeps it) and '*' activation (tested above).
    assert.ok(existsSync('LICENSE') && readFileSync('.vscodeignore', 'utf8').includes('!LICENSE'), 'LICENSE exists and is packaged');
  });

  test('declares untrusted-workspace behaviour and the runtime dependencies: the HTTP client and the MCP SDK', () => {
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.deepEqual(Object.keys(manifest.dependencies).sort(), ['@modelcontextprotocol/sdk', 'undici']);
    assert.match(manifest.dependencies.undici ?? '', /^\^7\./);
    assert.match(manifest.engines.vscode, /^\^1\.100\.0$/);
  });

  test('the walkthrough: the five steps a newcomer needs, each with light and dark pictures, links and events that exist', () => {
    const [walkthrough] = manifest.contributes.walkthroughs;
    assert.ok(walkthrough);
    assert.deepEqual(
      walkthrough.steps.map((s) => s.id),
      ['signIn', 'seeFindings', 'filterAndGroup', 'actOnFinding', 'exportSbom'],
    );
    const ours = new Set(commands.map((c) => c.command));
    const builtIn = new Set(['workbench.view.extension.appsecFindings', 'workbench.actions.view.problems']);
    for (const step of walkthrough.steps) {
      for (const theme of ['light', 'dark']) {
        const image = step.media.image[theme];
        assert.ok(image && existsSync(image), `${step.id}: the ${theme} picture ${image ?? '(none)'} exists (npm run walkthrough:images)`);
        assert.ok(readFileSync(image).subarray(1, 4).toString() === 'PNG', `${step.id}: ${image} is a PNG`);
      }
      // A theme id the host does not know leaves it in its light default: both pictures light.
      const [light, dark] = [meanBrightness(step.media.image.light), meanBrightness(step.media.image.dark)];
      assert.ok(light > 150 && dark < 100, `${step.id}: the light picture is light (${light.toFixed(0)}) and the dark one dark (${dark.toFixed(0)})`);
      assert.ok(step.media.altText.length > 20, `${step.id}: the picture is described for screen readers`);
      const links = [...step.description.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1] ?? '');
      assert.ok(links.length > 0, `${step.id}: the step offers an action`);
      for (const link of links) assert.ok(ours.has(link) || builtIn.has(link), `${step.id}: ${link} is a command`);
      for (const event of step.completionEvents) {
        const [kind, subject] = event.split(':');
        if (kind === 'onCommand') assert.ok(ours.has(subject ?? ''), `${step.id}: ${event} names one of our commands`);
        else if (kind === 'onView')
          assert.ok(
            Object.values(manifest.contributes.views)
              .flat()
              .some((v) => v.id === subject),
            `${step.id}: ${event} names our view`,
          );
        else
          assert.ok(
            kind === 'onContext' && (Object.values(WALKTHROUGH_KEYS) as string[]).includes(subject ?? ''),
            `${step.id}: ${event} is a key the extension sets`,
          );
      }
      // VS Code counts `onCommand` only for commands the window runs: a key the extension sets ticks every path.
      assert.ok(
        step.completionEvents.some((e) => e.startsWith('onContext:')),
        `${step.id}: ticked by a key the extension sets`,
      );
    }
    assert.match(walkthrough.steps[0]?.description ?? '', /Web API/, 'the token needs Web API access: said where it is created');
  });

  test('the pictures of the side bar end at its edges: no sliver of the activity bar, the editor or the status bar', () => {
    for (const name of ['findings', 'sign-in']) {
      for (const theme of ['light', 'dark']) {
        const picture = readPng(readFileSync(`media/walkthrough/${name}-${theme}.png`));
        const column = (x: number): (readonly number[])[] => Array.from({ length: picture.height }, (_, y) => picture.at(x, y));
        const row = (y: number): (readonly number[])[] => Array.from({ length: picture.width }, (_, x) => picture.at(x, y));
        for (const [edge, pixels] of [
          ['left', column(0)],
          ['right', column(picture.width - 1)],
          ['bottom', row(picture.height - 1)],
        ] as const) {
          // The side bar's border and its rounded corners shade the edge a little; an icon or text of a neighbour is far from it.
          const counts = new Map<string, number>();
          for (const p of pixels) counts.set(p.join(','), (counts.get(p.join(',')) ?? 0) + 1);
          const usual = ([...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '').split(',').map(Number);
          const far = pixels.filter((p) => p.some((channel, i) => Math.abs(channel - (usual[i] ?? 0)) > 24));
          assert.equal(
            far.length,
            0,
            `${name}-${theme}.png: its ${edge} edge is the side bar's own, ${far.length} pixels are not (${far
              .slice(0, 3)
              .map((p) => p.join(','))
              .join(' | ')} against ${usual.join(',')})`,
          );
        }
      }
    }
  });
});
