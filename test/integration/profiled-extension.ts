// The extension's entry point in the in-host benchmark's build with APPSEC_PROFILE_ACTIVATION=1
// (test/integration/launch/build.mjs → esbuild.mjs --profile-activation), never in a shipped one:
// the extension's own `activate`, bracketed by a CPU profile, so the benchmark can say where
// activation's time goes. An inspector session in the same thread answers synchronously, so
// starting and stopping it brackets `activate` exactly; (f) is then measured with the profiler on.
// The profile is left as the detail of a performance mark, which the suite reads
// (suite/activation-cost.ts).
import { Session } from 'node:inspector';
import type * as vscode from 'vscode';
import * as extension from '../../src/extension';
import { ACTIVATION_PROFILE_MARK } from './suite/activation-cost';

export function activate(context: vscode.ExtensionContext): ReturnType<typeof extension.activate> {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 100 });
  session.post('Profiler.start');
  try {
    return extension.activate(context);
  } finally {
    let profile: unknown;
    session.post('Profiler.stop', (_error, result) => {
      profile = result?.profile;
    });
    session.disconnect();
    performance.mark(ACTIVATION_PROFILE_MARK, { detail: profile });
  }
}

export const deactivate = extension.deactivate;
