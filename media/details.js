// Finding Details page: turns clicks on [data-action] elements into messages for the extension.
// No inline handlers (the page's CSP forbids them); the extension checks every message again.
(function () {
  'use strict';
  const vscode = acquireVsCodeApi();
  document.addEventListener('click', function (event) {
    const target = event.target instanceof Element ? event.target.closest('[data-action]') : null;
    if (!target) return;
    event.preventDefault();
    const action = target.getAttribute('data-action');
    if (action === 'triage') {
      vscode.postMessage({ type: 'triage', state: target.getAttribute('data-state') });
    } else if (action === 'openLink') {
      vscode.postMessage({ type: 'openLink', url: target.getAttribute('data-url') });
    } else if (action) {
      vscode.postMessage({ type: action });
    }
  });
  // Links are anchors with href="#": Enter on them already clicks; nothing more to wire.
})();
