/**
 * The inspector page's own script, served as /inspector/inspector.js after client.js: search,
 * a task's timeline, a step's prompt and ledger, its turn replayed as a diff. Plain DOM:
 * every piece of task content (goals, replies, prompts, tool results) goes in through
 * `textContent`, never as HTML, so nothing a person or a model wrote can run in the operator's
 * page. The operator token lives in sessionStorage (gone with the tab), never in localStorage.
 */
export const INSPECTOR_SCRIPT = String.raw`(function () {
  'use strict';
  var client = window.LomoInspectorClient;
  var STORAGE_KEY = 'lomo:operatorToken';
  var LIVE_CATEGORIES = ['TASK', 'TURN', 'GENERATION'];
  var TEXT = 'text purged purgedReason';

  var SEARCH = 'query Search($search: String, $workspaceId: ID) {' +
    ' operatorTasks(search: $search, workspaceId: $workspaceId, first: 50) {' +
    ' complete tasks { id workspaceId goal summary status kind lastActivityAt } } }';
  var INSPECT = 'query Inspect($taskId: ID!) { operatorTaskInspection(taskId: $taskId) {' +
    ' taskId workspaceId status feedCursor goal { ' + TEXT + ' }' +
    ' turns { turnId status reason startedAt endedAt }' +
    ' steps { turnId step committedAt generation excluded reply { ' + TEXT + ' }' +
    ' toolCallIntents { tool } ledger { status } usage { inputTokens outputTokens } }' +
    ' timeline { position streamId revision occurredAt type kind summary actor generation } } }';
  var TURN = 'query Turn($turnId: ID!) { operatorTurnInspection(turnId: $turnId, prompts: true) {' +
    ' turnId taskId workspaceId status steps { step committedAt generation excluded contextJson' +
    ' reply { ' + TEXT + ' } usage { inputTokens outputTokens }' +
    ' toolCallIntents { callId tool argumentsJson }' +
    ' prompt { tools layersPurged layersPurgedReason canonicalJson { purged purgedReason }' +
    ' layers { layer tokens messages { role content json } } }' +
    ' ledger { callId tool status resultJson startedAt finishedAt } } } }';
  var REPLAY = 'query Replay($turnId: ID!, $options: ReplayTurnOptions) {' +
    ' replayTurn(turnId: $turnId, options: $options) { turnId model divergedAt driftAt' +
    ' steps { step status diverged patched error { code message }' +
    ' context { status firstDifferingLayer } forgotten { flagged reason } concurrent { type at }' +
    ' reply { recorded { ' + TEXT + ' } replayed { ' + TEXT + ' } equal }' +
    ' toolCalls { callId tool status recordedArguments { ' + TEXT + ' } replayedArguments { ' + TEXT + ' }' +
    ' outcome { status resultJson reason purged purgedReason } } } } }';
  var FEED = 'subscription Follow($workspaceId: String, $after: String, $filter: EventFeedFilter) {' +
    ' eventFeed(workspaceId: $workspaceId, after: $after, filter: $filter) { cursor event { streamId type dataJson } } }';

  var $ = function (id) { return document.getElementById(id); };
  var state = { task: null, step: null, live: null, liveEvents: 0, refreshTimer: null, tickets: {} };

  /** An element with text or children; attributes as given. Content only ever as text. */
  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      if (name === 'text') node.textContent = attributes.text;
      else if (name === 'onclick') node.addEventListener('click', attributes.onclick);
      else node.setAttribute(name, attributes[name]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function shown(text) {
    if (!text) return '';
    return text.purged ? 'PURGED (' + (text.purgedReason || 'forgotten') + ')' : text.text;
  }
  function token() { return window.sessionStorage.getItem(STORAGE_KEY) || ''; }

  function showError(error) {
    var box = $('error');
    clear(box);
    box.className = error.code === 'FORBIDDEN' ? 'refusal' : 'failure';
    box.appendChild(el('strong', { text: error.code === 'FORBIDDEN' ? 'Refused (FORBIDDEN)' : 'Error (' + (error.code || 'ERROR') + ')' }));
    box.appendChild(el('span', { text: ': ' + error.message }));
    if (error.code === 'FORBIDDEN')
      box.appendChild(el('p', { text: 'The inspector reads every workspace: it needs an operator token, never a person\'s or an integration\'s.' }));
    box.hidden = false;
  }
  function clearError() { $('error').hidden = true; clear($('error')); }

  /** Runs a view's request; a newer request of the same view wins. Errors are shown, not thrown. */
  async function run(view, request) {
    var ticket = (state.tickets[view] || 0) + 1;
    state.tickets[view] = ticket;
    if (!token()) {
      showError({ code: 'UNAUTHENTICATED', message: 'Enter an operator token first.' });
      return undefined;
    }
    try {
      var data = await request();
      if (ticket !== state.tickets[view]) return undefined;
      clearError();
      return data;
    } catch (error) {
      if (ticket === state.tickets[view]) showError(error);
      return undefined;
    }
  }

  // Token.
  function renderToken() {
    $('token').value = token();
    $('token-state').textContent = token() ? 'Token kept for this tab.' : 'No token yet.';
  }
  $('token-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var value = $('token').value.trim();
    if (value) window.sessionStorage.setItem(STORAGE_KEY, value);
    else window.sessionStorage.removeItem(STORAGE_KEY);
    stopLive();
    renderToken();
  });

  // Search.
  $('search-form').addEventListener('submit', async function (event) {
    event.preventDefault();
    var search = $('search').value.trim();
    var workspaceId = $('workspace').value.trim();
    $('search-state').textContent = 'Searching…';
    var data = await run('search', function () {
      return client.query(token(), SEARCH, { search: search || null, workspaceId: workspaceId || null });
    });
    var list = $('task-list');
    clear(list);
    if (!data) { $('search-state').textContent = ''; return; }
    var found = data.operatorTasks;
    $('search-state').textContent = found.tasks.length + ' task(s)' + (found.complete ? '' : ' (the scan stopped at its bound: narrow the search)');
    found.tasks.forEach(function (task) {
      list.appendChild(el('li', {}, [
        el('button', { type: 'button', class: 'task-link', 'data-task-id': task.id, onclick: function () { openTask(task.id); } }, [
          el('span', { class: 'goal', text: task.goal || '(no goal)' }),
          el('span', { class: 'meta', text: task.workspaceId + ' · ' + (task.status || '?') + ' · ' + task.id })
        ])
      ]));
    });
  });

  // A task: its timeline and steps.
  async function openTask(taskId) {
    stopLive();
    $('follow').checked = false;
    $('step-panel').hidden = true;
    var data = await run('task', function () { return client.query(token(), INSPECT, { taskId: taskId }); });
    if (!data) return;
    renderTask(data.operatorTaskInspection);
  }

  function renderTask(task) {
    state.task = task;
    $('task-panel').hidden = false;
    $('task-title').textContent = shown(task.goal) || task.taskId;
    $('task-meta').textContent = 'Task ' + task.taskId + ' · workspace ' + task.workspaceId + ' · ' + task.status +
      ' · ' + task.turns.length + ' turn(s) · ' + task.steps.length + ' step(s)';
    var rows = $('timeline-rows');
    clear(rows);
    task.timeline.forEach(function (entry) {
      rows.appendChild(el('tr', { 'data-kind': entry.kind }, [
        el('td', { text: entry.occurredAt }),
        el('td', { class: 'kind', text: entry.kind }),
        el('td', { text: entry.type }),
        el('td', { text: entry.summary }),
        el('td', { text: entry.actor + (entry.generation === null ? '' : ' (gen ' + entry.generation + ')') }),
        el('td', { class: 'stream', text: entry.streamId + '@' + entry.revision })
      ]));
    });
    var steps = $('steps');
    clear(steps);
    task.steps.forEach(function (step) {
      var tools = step.toolCallIntents.map(function (c) { return c.tool; }).join(', ');
      var line = 'Turn ' + step.turnId.slice(0, 8) + ' · step ' + step.step + ' · ' + step.committedAt +
        (tools ? ' · tools: ' + tools : '') + (step.reply ? ' · reply: ' + shown(step.reply).slice(0, 80) : '') +
        (step.excluded ? ' · excluded' : '');
      steps.appendChild(el('li', {}, [
        el('button', { type: 'button', class: 'step-link', 'data-turn-id': step.turnId, 'data-step': String(step.step),
          onclick: function () { openStep(step.turnId, step.step); } }, [el('span', { text: line })])
      ]));
    });
  }

  // A step: its prompt by layer and its ledger.
  async function openStep(turnId, stepNumber) {
    var data = await run('step', function () { return client.query(token(), TURN, { turnId: turnId }); });
    if (!data) return;
    var turn = data.operatorTurnInspection;
    var step = turn.steps.filter(function (s) { return s.step === stepNumber; })[0];
    if (!step) { showError({ code: 'NOT_FOUND', message: 'No step ' + stepNumber + ' in turn ' + turnId }); return; }
    renderStep(turn, step);
  }

  function renderStep(turn, step) {
    $('step-panel').hidden = false;
    if (!state.step || state.step.turnId !== turn.turnId || state.step.step !== step.step) clearReplay();
    state.step = { turnId: turn.turnId, step: step.step };
    $('step-title').textContent = 'Turn ' + turn.turnId + ' · step ' + step.step;
    var usage = step.usage ? step.usage.inputTokens + ' in / ' + step.usage.outputTokens + ' out' : 'no usage';
    $('step-meta').textContent = step.committedAt + ' · generation ' + step.generation + ' · ' + usage +
      (step.reply ? ' · reply: ' + shown(step.reply) : '');
    var layers = $('prompt-layers');
    clear(layers);
    var prompt = step.prompt;
    if (!prompt) {
      layers.appendChild(el('p', { text: 'No archived prompt for this step.' }));
    } else if (prompt.layersPurged) {
      layers.appendChild(el('p', { class: 'purged', text: 'PURGED (' + (prompt.layersPurgedReason || 'forgotten') + ')' }));
    } else {
      prompt.layers.forEach(function (layer) {
        layers.appendChild(el('section', { class: 'layer', 'data-layer': layer.layer }, [
          el('h4', { text: layer.layer + ' · ' + layer.tokens + ' tokens · ' + layer.messages.length + ' message(s)' })
        ].concat(layer.messages.map(function (message) {
          return el('div', { class: 'message' }, [
            el('span', { class: 'role', text: message.role || '?' }),
            el('pre', { text: message.content !== null ? message.content : message.json })
          ]);
        }))));
      });
      layers.appendChild(el('p', { class: 'tools', text: 'Tools sent: ' + (prompt.tools.join(', ') || 'none') }));
    }
    var ledger = $('ledger-rows');
    clear(ledger);
    step.ledger.forEach(function (entry) {
      ledger.appendChild(el('tr', {}, [
        el('td', { text: entry.tool }),
        el('td', { text: entry.status }),
        el('td', { text: entry.startedAt || '' }),
        el('td', { text: entry.finishedAt || '' }),
        el('td', {}, [el('pre', { text: entry.resultJson })])
      ]));
    });
    $('ledger-empty').hidden = step.ledger.length > 0;
    $('ledger').hidden = step.ledger.length === 0;
  }

  // Replay: the step's turn replayed side-effect free (replayTurn), rendered as a diff per step.
  function clearReplay() {
    state.tickets.replay = (state.tickets.replay || 0) + 1;
    clear($('replay-result'));
    $('replay-state').textContent = '';
  }
  function lower(value) { return String(value || '').toLowerCase(); }
  function contextLine(context) {
    if (!context) return 'context: not rebuilt';
    var status = lower(context.status);
    if (status === 'context_drift') return 'context drift in layer ' + (context.firstDifferingLayer || '?');
    if (status === 'stored_prompt_missing') return 'context: stored prompt missing (nothing to compare with)';
    return 'context reproduced';
  }
  function argumentsText(text) {
    if (!text) return '—';
    return text.purged ? 'PURGED (' + (text.purgedReason || 'forgotten') + ')' : text.text;
  }
  function outcomeText(outcome) {
    if (!outcome) return '';
    if (outcome.purged) return 'PURGED (' + (outcome.purgedReason || 'forgotten') + ')';
    return outcome.status + (outcome.resultJson !== null ? ' ' + outcome.resultJson : '') +
      (outcome.reason ? ' (' + outcome.reason + ')' : '');
  }
  function renderReplay(report) {
    var box = $('replay-result');
    clear(box);
    box.appendChild(el('p', { class: 'replay-summary', text: 'Model ' + report.model + ' · ' +
      (report.divergedAt === null ? 'no divergence' : 'diverged at step ' + report.divergedAt) + ' · ' +
      (report.driftAt === null ? 'every prompt reproduced' : 'context drift from step ' + report.driftAt) }));
    report.steps.forEach(function (step) {
      var classes = ['replay-step'];
      if (step.step === report.divergedAt) classes.push('diverged');
      if (lower(step.status) !== 'replayed') classes.push('not-replayed');
      if (state.step && step.step === state.step.step) classes.push('selected');
      var section = el('section', { class: classes.join(' '), 'data-step': String(step.step),
        'data-status': lower(step.status), 'data-diverged': String(step.diverged) }, [
        el('h4', { text: 'Step ' + step.step + ' · ' + lower(step.status).replace('_', ' ') +
          (step.diverged ? ' · DIVERGED' : '') }),
        el('p', { class: 'context ' + lower(step.context && step.context.status), text: contextLine(step.context) })
      ]);
      if (step.error) section.appendChild(el('p', { class: 'flag', text: 'Model failed: ' + step.error.code + ': ' + step.error.message }));
      if (step.forgotten.flagged) section.appendChild(el('p', { class: 'flag', text: 'Depended on forgotten content (' + (step.forgotten.reason || 'forgotten') + '): rebuilt without it.' }));
      if (step.patched.length > 0) section.appendChild(el('p', { text: 'Patched: ' + step.patched.join('; ') }));
      if (step.concurrent.length > 0) section.appendChild(el('p', { text: 'Written during the model call (left out): ' +
        step.concurrent.map(function (c) { return c.type + ' at ' + c.at; }).join(', ') }));
      section.appendChild(el('div', { class: 'reply' }, [
        el('span', { class: 'role', text: 'Reply recorded' }),
        el('pre', { class: step.reply.recorded.purged ? 'recorded purged' : 'recorded', text: shown(step.reply.recorded) || '(no text)' }),
        el('span', { class: 'role', text: 'Reply replayed' + (step.reply.replayed === null ? '' : step.reply.equal ? ' (equal)' : ' (differs)') }),
        el('pre', { class: step.reply.replayed && step.reply.replayed.purged ? 'replayed purged' : 'replayed',
          text: step.reply.replayed === null ? '(not replayed)' : shown(step.reply.replayed) || '(no text)' })
      ]));
      if (step.toolCalls.length > 0) {
        section.appendChild(el('table', { class: 'replay-calls' }, [
          el('thead', {}, [el('tr', {}, ['Tool', 'Status', 'Recorded arguments', 'Replayed arguments', 'Recorded outcome']
            .map(function (h) { return el('th', { text: h }); }))]),
          el('tbody', {}, step.toolCalls.map(function (call) {
            return el('tr', { 'data-call-status': lower(call.status) }, [
              el('td', { text: call.tool }),
              el('td', { class: 'call-status', text: lower(call.status) }),
              el('td', {}, [el('pre', { text: argumentsText(call.recordedArguments) })]),
              el('td', {}, [el('pre', { text: argumentsText(call.replayedArguments) })]),
              el('td', {}, [el('pre', { text: outcomeText(call.outcome) })])
            ]);
          }))
        ]));
      } else {
        section.appendChild(el('p', { class: 'meta', text: 'No tool call.' }));
      }
      box.appendChild(section);
    });
  }
  $('replay-form').addEventListener('submit', async function (event) {
    event.preventDefault();
    if (!state.step) return;
    var target = state.step;
    var model = $('replay-model').value;
    var patch = $('replay-patch').value.trim();
    var script = $('replay-script').value.trim();
    var options = { model: model };
    if ($('replay-only-step').checked) options.step = target.step;
    if (patch) options.promptPatch = patch;
    if (script && model === 'SCRIPTED') options.script = script;
    clear($('replay-result'));
    $('replay-state').textContent = 'Replaying turn ' + target.turnId + '…';
    var data = await run('replay', function () {
      return client.query(token(), REPLAY, { turnId: target.turnId, options: options });
    });
    // Another step opened meanwhile: this answer is not about it.
    if (state.step !== target) return;
    if (!data) { $('replay-state').textContent = 'Replay refused or failed (see above).'; return; }
    $('replay-state').textContent = 'Replayed side-effect free: nothing was run or written.';
    renderReplay(data.replayTurn);
  });

  // Following a task live: the workspace's event feed from the inspection's cursor; an event of
  // the task, one of its turns or its jobs reads the inspection again.
  function relevant(event, task) {
    if (event.streamId === 'task-' + task.taskId) return true;
    var turnIds = task.turns.map(function (t) { return 'turn-' + t.turnId; });
    if (turnIds.indexOf(event.streamId) >= 0) return true;
    return event.dataJson.indexOf(task.taskId) >= 0;
  }
  function liveState(text) { $('live-state').textContent = text; }
  function stopLive() {
    if (state.live) state.live.close();
    state.live = null;
    clearTimeout(state.refreshTimer);
    liveState('');
  }
  function startLive() {
    var task = state.task;
    if (!task) return;
    stopLive();
    state.liveEvents = 0;
    liveState('Connecting…');
    state.live = client.subscribe(token(), FEED, {
      workspaceId: task.workspaceId,
      after: task.feedCursor,
      filter: { categories: LIVE_CATEGORIES }
    }, {
      opened: function () { liveState('Following live.'); },
      next: function (data) {
        var event = data.eventFeed.event;
        if (!state.task || !relevant(event, state.task)) return;
        state.liveEvents += 1;
        liveState('Following live: ' + state.liveEvents + ' new event(s), last ' + event.type + '.');
        clearTimeout(state.refreshTimer);
        state.refreshTimer = setTimeout(refresh, 300);
      },
      error: function (error) { showError(error); liveState('Stopped.'); $('follow').checked = false; state.live = null; },
      closed: function (reason) { liveState('Stopped: ' + reason); $('follow').checked = false; state.live = null; }
    });
  }
  async function refresh() {
    if (!state.task) return;
    var taskId = state.task.taskId;
    var data = await run('task', function () { return client.query(token(), INSPECT, { taskId: taskId }); });
    if (data && state.task && state.task.taskId === taskId) renderTask(data.operatorTaskInspection);
  }
  $('follow').addEventListener('change', function () {
    if ($('follow').checked) startLive();
    else stopLive();
  });

  renderToken();
})();
`;
