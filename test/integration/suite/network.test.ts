// VS Code's `http.proxy`, set in user settings, routes the extension's own requests through a
// real proxy (Debian's tinyproxy, started here): VS Code does not patch the bundled undici, so
// this proves the extension honours the setting itself. The setting is restored afterwards.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConnectionReport } from '../../../src/core/api/check-connection';
import { freePort, startTinyproxy, type RunningTinyproxy } from '../../platform/tinyproxy';
import { fixture, signIn, type Fixture, signedIn } from './fixture';
import { appsecDiagnosticCount, waitFor } from './helpers';
import { snapshotTree } from './tree-snapshot';

/** Sets `http.proxy` and resolves once the extension has seen the change (its listener runs first). */
async function setProxy(value: string | undefined): Promise<void> {
  const seen = new Promise<void>((resolve) => {
    const listener = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('http.proxy')) return;
      listener.dispose();
      resolve();
    });
  });
  await vscode.workspace.getConfiguration('http').update('proxy', value, vscode.ConfigurationTarget.Global);
  await seen;
}

function viaProxySince(f: Fixture, mark: number, proxy: RunningTinyproxy): number {
  return f.server.requests.slice(mark).filter((r) => String(r.headers.via ?? '').includes(proxy.viaName)).length;
}

describe('network: http.proxy', () => {
  // Stands alone: signs in (and fills Problems) when run first or by itself.
  before(async () => {
    await signedIn();
  });

  let proxy: RunningTinyproxy | undefined;

  before(async () => {
    proxy = await startTinyproxy();
  });

  after(async () => {
    if (vscode.workspace.getConfiguration('http').inspect('proxy')?.globalValue !== undefined) await setProxy(undefined);
    await proxy?.close();
  });

  it('Check Connection and a refresh go through the proxy from the user settings', async () => {
    const f = await fixture();
    if (f.api.app.session.state.kind !== 'signedIn') await signIn(f);
    assert.ok(proxy);
    await setProxy(proxy.url);

    const report = await vscode.commands.executeCommand<ConnectionReport>('appsecFindings.checkConnection');
    assert.equal(report.ok, true, JSON.stringify(report.steps, null, 2));
    assert.match(report.steps.find((s) => s.id === 'proxy')?.detail ?? '', new RegExp(`^${proxy.url} \\(from http\\.proxy\\)`));
    assert.match(report.steps.find((s) => s.id === 'auth')?.detail ?? '', new RegExp(`deployment ${f.data.deployment.slug} `));
    const via = proxy;
    await waitFor(() => via.requests().includes(`GET ${f.server.url}/api/v1/deployments`), 5_000, `the proxy logged the check's request:\n${via.log()}`);
    assert.doesNotMatch(JSON.stringify(report), new RegExp(f.server.token));

    const mark = f.server.requests.length;
    const seenByProxy = proxy.requests().length;
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const refreshed = f.server.requests.slice(mark);
    assert.ok(
      refreshed.some((r) => r.path.endsWith('/findings')),
      'the refresh loaded findings',
    );
    assert.equal(viaProxySince(f, mark, proxy), refreshed.length, 'every request of the refresh came through the proxy');
    // The proxy's processes write their log lines a little after forwarding (more of them with more connections).
    await waitFor(
      () =>
        via
          .requests()
          .slice(seenByProxy)
          .some((r) => r.startsWith(`GET ${f.server.url}/api/v1/deployments/`)),
      5_000,
      `the proxy logged the refresh's requests:\n${via.log()}`,
    );
  });

  it('a load waiting to retry when http.proxy changes retries through the proxy, and still succeeds', async () => {
    const f = await fixture();
    assert.ok(proxy);
    await setProxy(undefined);
    // What each kind of finding says (a stale mark when its load failed).
    const kinds = async (): Promise<string> => {
      const projects = await snapshotTree(f.api.trees.projects, 3);
      return (projects.find((p) => p.label === f.project.name)?.children ?? []).map((c) => `${c.label}: ${c.description ?? ''}`).join('; ');
    };
    assert.doesNotMatch(await kinds(), /stale/);
    const shown = appsecDiagnosticCount();
    const mark = f.server.requests.length;
    const logged = f.api.app.log.recent().length;
    // The first findings request is refused with a wait; the settings change inside that wait, so
    // the retry is sent after the host has replaced (and closed) the connections it began on.
    f.server.faults.inject({ kind: 'status', status: 503, body: 'busy', headers: { 'retry-after': '2' } }, { pathIncludes: '/findings' }, 1);
    const refreshed = Promise.resolve(vscode.commands.executeCommand('appsecFindings.refresh'));
    await waitFor(() => f.server.requests.slice(mark).some((r) => r.path.endsWith('/findings')), 10_000, 'a findings request was refused');
    const seenByProxy = proxy.requests().length;
    await setProxy(proxy.url);
    await refreshed;
    assert.equal(appsecDiagnosticCount(), shown, 'Problems shows the same findings');
    const failures = f.api.app.log
      .recent()
      .slice(logged)
      .filter((line) => /failed:|Refresh failed/.test(line));
    assert.deepEqual(failures, [], 'no load of the refresh failed');
    assert.doesNotMatch(await kinds(), /stale/);
    assert.ok(
      proxy
        .requests()
        .slice(seenByProxy)
        .some((r) => r.includes('/findings')),
      `the retry went through the proxy: ${proxy.log()}`,
    );
    await setProxy(undefined);
  });

  it('a dead proxy is named in the report, and clearing the setting goes direct again', async () => {
    const f = await fixture();
    assert.ok(proxy);
    const deadPort = await freePort();
    await setProxy(`http://someone:hidden-pass@127.0.0.1:${deadPort}`);
    const dead = await vscode.commands.executeCommand<ConnectionReport>('appsecFindings.checkConnection');
    assert.equal(dead.failed?.id, 'tcp');
    assert.match(dead.failed?.detail ?? '', new RegExp(`Could not connect to the proxy http://\\*\\*\\*:\\*\\*\\*@127\\.0\\.0\\.1:${deadPort}`));
    assert.doesNotMatch(JSON.stringify(dead), /hidden-pass/);

    await setProxy(undefined);
    const mark = f.server.requests.length;
    const seenByProxy = proxy.requests().length;
    await vscode.commands.executeCommand('appsecFindings.refresh');
    assert.ok(f.server.requests.length > mark, 'the refresh reached the platform');
    assert.equal(viaProxySince(f, mark, proxy), 0);
    assert.equal(proxy.requests().length, seenByProxy);
  });
});
