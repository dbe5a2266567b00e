import { Agent, request } from 'undici';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { rawSync } from './sync';
import type { ServerReady } from './server';

async function main(): Promise<void> {
  const flags = (process.env.SRVFLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', join(__dirname, 'server-child.ts'), JSON.stringify({ projects: 50, sastPerProject: 1600, scaPerProject: 400 })], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise<ServerReady>((r) => child.once('message', (m) => r(m as ServerReady)));
  const agent = new Agent();
  for (const t of ['sast', 'sca']) {
    const { body } = await request(`${ready.url}/api/v1/deployments/acme/findings?issue_type=${t}&page=1&page_size=3000`, { dispatcher: agent, headers: { authorization: `Bearer ${ready.token}` } });
    console.log(t, 'page bytes', (await body.arrayBuffer()).byteLength);
  }
  const times: number[] = [];
  for (let i = 0; i < 6; i++) {
    const s = performance.now();
    await rawSync({ agent, url: ready.url, token: ready.token, slug: ready.deploymentSlug }, 3000, 4);
    times.push(Math.round(performance.now() - s));
  }
  console.log(flags.join(' ') || '(none)', times.join(' '));
  await agent.close();
  child.disconnect();
}
void main();
