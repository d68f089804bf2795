/**
 * The inspector's GraphQL client, served as /inspector/client.js (the CSP allows no inline
 * script and nothing from another origin, so no library from a CDN either): queries over `fetch`
 * with the bearer token, and subscriptions over the graphql-transport-ws protocol the API speaks
 * (libs/api/src/subscriptions/ws), written out here because it is a handful of messages. Exposes
 * `window.LomoInspectorClient`; an error carries the API's `extensions.code` as `code`.
 */
export const INSPECTOR_CLIENT_SCRIPT = String.raw`(function () {
  'use strict';

  function refusal(first, fallback) {
    var error = new Error((first && first.message) || fallback);
    error.code = (first && first.extensions && first.extensions.code) || 'ERROR';
    return error;
  }

  async function query(token, text, variables) {
    var response = await fetch(window.location.origin + '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token },
      body: JSON.stringify({ query: text, variables: variables || {} })
    });
    var body;
    try {
      body = await response.json();
    } catch (e) {
      throw refusal(undefined, 'The API answered ' + response.status + ' without a GraphQL body');
    }
    if (body.errors && body.errors.length > 0) throw refusal(body.errors[0], 'The API refused the query');
    return body.data;
  }

  /**
   * One subscription on its own connection. handlers: next(data), error(err), closed(reason).
   * Returns { close() }; after close no handler is called.
   */
  function subscribe(token, text, variables, handlers) {
    var url = (window.location.protocol === 'https:' ? 'wss://' : 'ws://') + window.location.host + '/graphql';
    var socket = new WebSocket(url, 'graphql-transport-ws');
    var done = false;
    function send(message) {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    }
    function finish(callback) {
      if (done) return;
      done = true;
      callback();
      try { socket.close(1000); } catch (e) { /* already closing */ }
    }
    socket.onopen = function () {
      send({ type: 'connection_init', payload: { authorization: 'Bearer ' + token } });
    };
    socket.onmessage = function (frame) {
      if (done) return;
      var message;
      try {
        message = JSON.parse(frame.data);
      } catch (e) {
        return;
      }
      if (message.type === 'connection_ack') {
        send({ id: '1', type: 'subscribe', payload: { query: text, variables: variables || {} } });
        if (handlers.opened) handlers.opened();
      } else if (message.type === 'ping') {
        send({ type: 'pong' });
      } else if (message.type === 'next') {
        var payload = message.payload || {};
        if (payload.errors && payload.errors.length > 0) {
          finish(function () { handlers.error(refusal(payload.errors[0], 'The subscription failed')); });
        } else {
          handlers.next(payload.data);
        }
      } else if (message.type === 'error') {
        var errors = Array.isArray(message.payload) ? message.payload : [message.payload];
        finish(function () { handlers.error(refusal(errors[0], 'The subscription was refused')); });
      } else if (message.type === 'complete') {
        finish(function () { handlers.closed('completed'); });
      }
    };
    socket.onclose = function (event) {
      if (done) return;
      done = true;
      handlers.closed(event.reason || 'connection closed (' + event.code + ')');
    };
    return {
      close: function () {
        if (done) return;
        done = true;
        send({ id: '1', type: 'complete' });
        try { socket.close(1000); } catch (e) { /* already closing */ }
      }
    };
  }

  window.LomoInspectorClient = { query: query, subscribe: subscribe };
})();
`;
