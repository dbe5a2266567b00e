/**
 * `npm run demo` starts VS Code signed in to the local demo platform. The demo launcher passes
 * its (made-up) token in APPSEC_FINDINGS_DEMO_TOKEN; it is adopted into SecretStorage only when
 * no token is stored and the base URL is a loopback address, so it can never send a real
 * user's requests anywhere else.
 */
import { isLoopbackHost, parseBaseUrl } from '../core/api/baseUrl';
import type { TokenStore } from '../core/services/session';
import type { Logger } from './logger';

function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/**
 * The demo platform's token, offered in the sign-in box after a sign-out in the demo: only with
 * the demo launcher's variable and a loopback base URL (a real platform never gets it offered).
 */
export function demoTokenFor(baseUrl: string, env: NodeJS.ProcessEnv): string | undefined {
  const demo = env.APPSEC_FINDINGS_DEMO_TOKEN;
  return demo && isLoopbackUrl(baseUrl) ? demo : undefined;
}

export async function adoptDemoToken(tokens: TokenStore, baseUrl: string, env: NodeJS.ProcessEnv, log: Logger): Promise<boolean> {
  const demo = demoTokenFor(baseUrl, env);
  if (!demo) return false;
  // A loopback base URL, so a usable one (demoTokenFor said so): its origin as the session reads it.
  const origin = parseBaseUrl(baseUrl).origin;
  if (await tokens.get(origin)) return false;
  await tokens.store(origin, demo);
  log.info('Signed in with the demo token of the local demo platform.');
  return true;
}
