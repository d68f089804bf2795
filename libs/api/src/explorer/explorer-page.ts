/** The explorer page: a token bar over GraphiQL; scripts and styles only from /explorer/. */
export const EXPLORER_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Lomo API explorer</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/explorer/graphiql.min.css" />
    <link rel="stylesheet" href="/explorer/explorer.css" />
  </head>
  <body>
    <form id="token-form" autocomplete="off">
      <label for="token">API token</label>
      <input id="token" name="token" type="password" placeholder="lomo_..." spellcheck="false" />
      <button type="submit">Save</button>
      <span id="token-state" role="status"></span>
    </form>
    <div id="graphiql">Loading the explorer…</div>
    <script src="/explorer/react.production.min.js"></script>
    <script src="/explorer/react-dom.production.min.js"></script>
    <script src="/explorer/graphiql.min.js"></script>
    <script src="/explorer/explorer.js"></script>
  </body>
</html>
`;

export const EXPLORER_CSS = `html, body { height: 100%; margin: 0; }
body { display: flex; flex-direction: column; font-family: system-ui, sans-serif; }
#token-form { display: flex; gap: 8px; align-items: center; padding: 6px 12px; border-bottom: 1px solid #ddd; font-size: 14px; }
#token { flex: 0 1 28em; font-family: monospace; }
#token-state { color: #666; }
#graphiql { flex: 1; min-height: 0; }
`;
