/**
 * The explorer page's own script, served as /explorer/explorer.js (the CSP allows no inline
 * script). Plain ES5-style browser code over the UMD globals React, ReactDOM and GraphiQL: the
 * token lives in localStorage and goes out as `Authorization: Bearer` on HTTP and as
 * `connectionParams.authorization` on the subscriptions' WebSocket.
 */
export const EXPLORER_SCRIPT = String.raw`(function () {
  'use strict';
  var STORAGE_KEY = 'lomo:apiToken';
  var DEFAULT_QUERY = '# Paste your API token above (the dev token is printed at start), then run:\n{\n  me { workspaceId userId }\n}\n';
  var form = document.getElementById('token-form');
  var input = document.getElementById('token');
  var state = document.getElementById('token-state');
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  var query = new URLSearchParams(window.location.search).get('query');
  var wsUrl = (window.location.protocol === 'https:' ? 'wss://' : 'ws://') + window.location.host + '/graphql';

  function render() {
    var token = window.localStorage.getItem(STORAGE_KEY) || '';
    input.value = token;
    state.textContent = token ? 'Token saved in this browser.' : 'No token yet.';
    var bearer = token ? { Authorization: 'Bearer ' + token } : {};
    var fetcher = GraphiQL.createFetcher({
      url: window.location.origin + '/graphql',
      subscriptionUrl: wsUrl,
      headers: bearer,
      wsConnectionParams: token ? { authorization: 'Bearer ' + token } : {}
    });
    var props = { key: token, fetcher: fetcher, defaultQuery: DEFAULT_QUERY };
    // Without a token the schema cannot be read (every request needs one): do not ask for it.
    if (!token) props.schema = null;
    if (query) props.query = query;
    root.render(React.createElement(GraphiQL, props));
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var token = input.value.trim();
    if (token) window.localStorage.setItem(STORAGE_KEY, token);
    else window.localStorage.removeItem(STORAGE_KEY);
    render();
  });
  render();
})();
`;
