/* One POST to the site's JSON endpoints, as the live table's moves and controls send them:
   CatleaguePost(url, csrf, body) resolves with the answer's JSON, or rejects with an Error
   whose message is the server's reason in words (its field messages, else its detail). */
(function () {
  "use strict";

  window.CatleaguePost = function (url, csrf, body) {
    var headers = { "X-CSRFToken": csrf };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    return fetch(url, {
      method: "POST", credentials: "same-origin", headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(function (response) {
      return response.json().then(function (answer) {
        if (!response.ok) {
          var fields = answer.fields || {};
          var reason = Object.keys(fields).map(function (k) { return fields[k].join(" "); }).join(" ");
          throw new Error(reason || answer.detail || ("status " + response.status));
        }
        return answer;
      });
    });
  };
})();
