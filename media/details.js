// Finding Details page: turns presses on [data-action] elements into messages for the extension,
// redraws its body when the extension sends a new one (the document, and so its stylesheet, stays),
// and keeps the reader's place when the document itself is loaded again (a hidden panel shown).
// Plain browser JavaScript, no build step. No inline handlers: the page's CSP forbids them.
// The extension checks every message again (parseDetailsMessage): this file is not the guard.
(function () {
  'use strict';
  const vscode = acquireVsCodeApi();
  const SIMPLE = [
    'addNote',
    'createTicket',
    'linkTicket',
    'unlinkTicket',
    'unlinkTicketEverywhere',
    'openInPlatform',
    'openLocation',
    'applyFix',
    'copyRuleId',
    'refresh',
    'showTrace',
    'requestAutofix',
    'fixWithAgent',
  ];
  // A rebuilt page takes the focus back only right after a press, never from a later refresh.
  const FOCUS_WINDOW_MS = 10000;
  const main = document.querySelector('main');
  // The finding shown: a redraw may show another (the panel is reused).
  function finding() {
    return main ? main.getAttribute('data-finding') : null;
  }

  function messageFor(element) {
    const action = element.getAttribute('data-action');
    if (action === 'triage') return { type: 'triage', state: element.getAttribute('data-state') };
    if (action === 'openLink') return { type: 'openLink', url: element.getAttribute('data-url') };
    if (action === 'openTraceStep') return { type: 'openTraceStep', index: Number(element.getAttribute('data-index')) };
    return SIMPLE.indexOf(action) >= 0 ? { type: action } : undefined;
  }

  function keyOf(element) {
    return [
      element.getAttribute('data-action'),
      element.getAttribute('data-state') || '',
      element.getAttribute('data-url') || '',
      element.getAttribute('data-index') || '',
    ].join('\n');
  }

  // The state survives the rebuild; it belongs to one finding (the panel is reused for others).
  function remember(patch) {
    const state = vscode.getState() || {};
    vscode.setState(Object.assign({}, state.finding === finding() ? state : {}, patch, { finding: finding() }));
  }

  document.addEventListener('click', function (event) {
    const element = event.target instanceof Element ? event.target.closest('[data-action]') : null;
    if (!element) return;
    // Links are `href="#"` anchors: the extension opens them, the page never navigates.
    event.preventDefault();
    const message = messageFor(element);
    if (!message) return;
    remember({ focused: keyOf(element), pressedAt: Date.now() });
    vscode.postMessage(message);
  });

  document.addEventListener(
    'scroll',
    function () {
      if (document.scrollingElement) remember({ scrollTop: document.scrollingElement.scrollTop });
    },
    { passive: true },
  );

  // A new body in place: the control that had the focus has it again (or, if it is gone, such as
  // Mark as Reviewing once reviewing, the first action); another finding starts at the top.
  window.addEventListener('message', function (event) {
    const message = event.data;
    if (!main || !message || message.type !== 'redraw' || typeof message.markup !== 'string') return;
    const active = document.activeElement;
    const focused = active instanceof Element && main.contains(active) && active.hasAttribute('data-action') ? keyOf(active) : undefined;
    const sameFinding = message.finding === finding();
    main.setAttribute('data-finding', String(message.finding));
    document.title = String(message.title);
    main.innerHTML = message.markup;
    if (!sameFinding && document.scrollingElement) document.scrollingElement.scrollTop = 0;
    if (focused !== undefined && sameFinding) {
      const controls = Array.prototype.slice.call(main.querySelectorAll('[data-action]'));
      const target =
        controls.find(function (c) {
          return keyOf(c) === focused;
        }) || main.querySelector('.actions [data-action]');
      if (target) target.focus({ preventScroll: true });
    }
  });

  vscode.postMessage({ type: 'ready' });

  const saved = vscode.getState();
  if (!saved || saved.finding !== finding()) return;
  if (typeof saved.scrollTop === 'number' && document.scrollingElement) document.scrollingElement.scrollTop = saved.scrollTop;
  if (typeof saved.focused === 'string' && typeof saved.pressedAt === 'number' && Date.now() - saved.pressedAt < FOCUS_WINDOW_MS) {
    const controls = Array.prototype.slice.call(document.querySelectorAll('[data-action]'));
    // The pressed control may be gone (Mark as Reviewing, once reviewing): then the first action.
    const target =
      controls.find(function (c) {
        return keyOf(c) === saved.focused;
      }) || document.querySelector('.actions [data-action]');
    if (target) target.focus({ preventScroll: true });
    remember({ focused: undefined, pressedAt: undefined });
  }
})();
