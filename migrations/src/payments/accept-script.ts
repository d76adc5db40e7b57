/**
 * The local sandbox's Accept.js-compatible script, served by the API. It implements
 * `Accept.dispatchData({ authData, cardData }, handler)` by posting the card fields to the sandbox
 * tokeniser next to the script's own URL and handing the answer (Accept.js success or E_WC_xx error
 * shape) to the handler, as Accept.js does. Kept as plain ES5 so any browser runs it unbundled.
 */
export const SANDBOX_ACCEPT_SCRIPT = `/* Nurture Home local payment sandbox: Accept.js-compatible tokeniser. Not for real cards. */
(function () {
  'use strict';
  var current = document.currentScript;
  var base = current && current.src ? current.src.replace(/accept\\.js(\\?.*)?$/, '') : '/api/payments/sandbox/';
  function fail(handler, text) {
    handler({ messages: { resultCode: 'Error', message: [{ code: 'E_WC_14', text: text }] } });
  }
  window.Accept = {
    sandbox: true,
    dispatchData: function (secureData, handler) {
      if (typeof handler !== 'function') throw new Error('Accept.dispatchData needs a response handler');
      fetch(base + 'tokenize', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        credentials: 'omit',
        body: JSON.stringify({ authData: secureData && secureData.authData, cardData: secureData && secureData.cardData })
      })
        .then(function (res) { return res.json(); })
        .then(function (answer) { handler(answer); })
        .catch(function () { fail(handler, 'Could not reach the payment sandbox. Please try again.'); });
    }
  };
})();
`;
