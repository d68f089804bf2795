/**
 * The inspector page: an operator token bar, a task search, a task's timeline and steps, a
 * step's prompt by layer with its ledger, and its turn replayed (`replayTurn`) as a diff per step.
 * Scripts and styles only from /inspector/.
 */
export const INSPECTOR_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Lomo inspector</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/inspector/inspector.css" />
  </head>
  <body>
    <header>
      <strong>Lomo inspector</strong>
      <form id="token-form" autocomplete="off">
        <label for="token">Operator token</label>
        <input id="token" name="token" type="password" placeholder="lomo_..." spellcheck="false" />
        <button type="submit">Use</button>
        <span id="token-state" role="status"></span>
      </form>
    </header>
    <div id="error" role="alert" hidden></div>
    <main>
      <section id="search-panel">
        <form id="search-form" autocomplete="off">
          <input id="search" name="search" type="search" placeholder="Goal words or a task id" />
          <input id="workspace" name="workspace" type="text" placeholder="Workspace (all)" spellcheck="false" />
          <button type="submit">Search</button>
        </form>
        <p id="search-state" role="status"></p>
        <ul id="task-list"></ul>
      </section>
      <section id="task-panel" hidden>
        <h2 id="task-title"></h2>
        <p id="task-meta"></p>
        <label class="follow"><input id="follow" type="checkbox" /> Follow live</label>
        <span id="live-state" role="status"></span>
        <h3>Steps</h3>
        <ul id="steps"></ul>
        <h3>Timeline</h3>
        <table id="timeline">
          <thead>
            <tr><th>Time</th><th>Kind</th><th>Event</th><th>Summary</th><th>Actor</th><th>Stream</th></tr>
          </thead>
          <tbody id="timeline-rows"></tbody>
        </table>
      </section>
      <section id="step-panel" hidden>
        <h2 id="step-title"></h2>
        <p id="step-meta"></p>
        <h3>Prompt by layer</h3>
        <div id="prompt-layers"></div>
        <h3>Ledger</h3>
        <p id="ledger-empty">No tool call.</p>
        <table id="ledger">
          <thead>
            <tr><th>Tool</th><th>Status</th><th>Started</th><th>Finished</th><th>Result</th></tr>
          </thead>
          <tbody id="ledger-rows"></tbody>
        </table>
        <h3>Replay</h3>
        <form id="replay-form" autocomplete="off">
          <label for="replay-model">Model</label>
          <select id="replay-model" name="model">
            <option value="RECORDED">recorded replies</option>
            <option value="OFFLINE">offline</option>
            <option value="OPENAI">openai</option>
            <option value="SCRIPTED">scripted</option>
          </select>
          <label><input id="replay-only-step" type="checkbox" /> Only this step</label>
          <button type="submit" id="replay-run">Replay</button>
          <label class="block" for="replay-patch">Prompt patch (JSON, optional)</label>
          <textarea class="block" id="replay-patch" rows="4" spellcheck="false"
            placeholder='{"patches": [{"layer": "prefix", "find": "...", "replace": "..."}]}'></textarea>
          <label class="block" for="replay-script">Script (JSON, scripted model only)</label>
          <textarea class="block" id="replay-script" rows="4" spellcheck="false"
            placeholder='{"steps": [{"reply": {"text": "...", "toolCalls": []}}]}'></textarea>
        </form>
        <p id="replay-state" role="status"></p>
        <div id="replay-result"></div>
      </section>
    </main>
    <script src="/inspector/client.js"></script>
    <script src="/inspector/inspector.js"></script>
  </body>
</html>
`;

export const INSPECTOR_CSS = `body { margin: 0; font-family: system-ui, sans-serif; font-size: 14px; color: #222; }
header { display: flex; gap: 16px; align-items: center; padding: 6px 12px; border-bottom: 1px solid #ddd; }
#token-form { display: flex; gap: 8px; align-items: center; }
#token { width: 24em; font-family: monospace; }
#token-state, #search-state, #live-state, .meta, #task-meta, #step-meta { color: #666; }
#error { margin: 8px 12px; padding: 8px 12px; border-radius: 4px; }
#error.refusal { background: #fdecea; border: 1px solid #e0a39b; color: #8a1c10; }
#error.failure { background: #fff4e5; border: 1px solid #e8c48f; }
main { display: grid; grid-template-columns: minmax(16em, 22em) 1fr; gap: 12px; padding: 12px; }
#step-panel { grid-column: 2; }
#search-form { display: flex; flex-wrap: wrap; gap: 6px; }
#search { flex: 1 1 12em; }
#workspace { flex: 0 1 9em; }
ul { list-style: none; padding: 0; margin: 0; }
li { margin: 2px 0; }
.task-link, .step-link { display: block; width: 100%; text-align: left; background: #f7f7f7; border: 1px solid #ddd; border-radius: 4px; padding: 4px 8px; cursor: pointer; font: inherit; }
.task-link:hover, .step-link:hover { background: #eef4ff; }
.task-link .goal { display: block; }
.task-link .meta { display: block; font-size: 12px; }
h2 { margin: 4px 0; font-size: 18px; }
h3 { margin: 12px 0 4px; font-size: 15px; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #eee; padding: 3px 6px; text-align: left; vertical-align: top; }
td.kind { font-weight: 600; }
td.stream { font-family: monospace; font-size: 12px; color: #666; }
.layer { border: 1px solid #ddd; border-radius: 4px; margin: 6px 0; padding: 4px 8px; }
.layer h4 { margin: 2px 0 4px; }
.message .role { font-size: 12px; font-weight: 600; color: #555; }
pre { white-space: pre-wrap; word-break: break-word; margin: 2px 0 6px; font-size: 12px; max-height: 24em; overflow: auto; background: #fafafa; }
.purged { color: #8a1c10; }
#replay-form { display: flex; flex-wrap: wrap; gap: 4px 8px; align-items: center; max-width: 60em; }
#replay-form .block { flex: 1 1 100%; }
#replay-form textarea { font-family: monospace; font-size: 12px; box-sizing: border-box; }
#replay-state { color: #666; }
.replay-summary { font-weight: 600; }
.replay-step { border: 1px solid #ddd; border-radius: 4px; margin: 6px 0; padding: 4px 8px; }
.replay-step.selected { border-color: #7aa7e0; }
.replay-step.diverged { border: 2px solid #c0392b; background: #fdf3f2; }
.replay-step.not-replayed { color: #888; }
.replay-step h4 { margin: 2px 0 4px; }
.replay-step .context.context_drift, .replay-step .context.stored_prompt_missing { color: #8a5a00; font-weight: 600; }
.replay-step .flag { color: #8a1c10; }
td.call-status { font-family: monospace; }
`;
