/* Friends at a live table (arena/live/company.py): the waiting room before the first move
   (the countdown, seating a guest, starting now) and, on a device that holds a guest's seat
   too, the hand-over: while another seat of this device is asked, the board is hidden behind
   "Pass the phone to <name>", and only that person opens their seat. Listens to the state
   play.js long-polls ("play:state" events); reloads the page when the company changes. */
(function () {
  "use strict";

  var company = document.getElementById("play-company");
  var play = document.getElementById("play");
  if (!company || !play) return;
  var csrf = play.querySelector("input[name=csrfmiddlewaretoken]").value;
  var gathering = company.getAttribute("data-gathering") === "1";
  var openSeats = Number(company.getAttribute("data-open"));
  var tableUrl = company.getAttribute("data-table-url");
  var handover = document.getElementById("play-handover");
  var leftNode = document.getElementById("company-left");
  var hidden = [play.querySelector(".play-turn"), play.querySelector(".play-main")];
  var until = null;

  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "X-CSRFToken": csrf, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body).toString(),
    }).then(function (response) {
      return response.json().then(function (answer) {
        if (!response.ok) {
          var error = new Error(answer.detail || ("status " + response.status));
          error.fields = answer.fields || {};
          throw error;
        }
        return answer;
      });
    });
  }

  function messages(error, names) {
    var found = [];
    names.forEach(function (name) { if (error.fields && error.fields[name]) found = found.concat(error.fields[name]); });
    return found.length ? found.join(" ") : error.message;
  }

  Array.prototype.forEach.call(company.querySelectorAll("form.play-guest"), function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var input = form.querySelector("input[name=name]");
      var errorNode = form.querySelector(".field-errors");
      post(company.getAttribute("data-guest-url"), { seat: form.getAttribute("data-seat"), name: input.value })
        .then(function () { window.location.reload(); })
        .catch(function (error) {
          errorNode.textContent = messages(error, ["name", "seat", "match"]);
          errorNode.hidden = false;
          input.setAttribute("aria-invalid", "true");
          input.focus();
        });
    });
  });

  var start = document.getElementById("company-start");
  if (start) {
    start.addEventListener("click", function () {
      start.disabled = true;
      post(company.getAttribute("data-start-url"), {})
        .then(function () { window.location.reload(); })
        .catch(function (error) {
          start.disabled = false;
          var node = document.getElementById("company-error");
          node.textContent = messages(error, ["match"]);
          node.hidden = false;
        });
    });
  }

  function tick() {
    if (!leftNode || until === null) return;
    var left = Math.max(0, Math.round((until - Date.now()) / 1000));
    leftNode.textContent = Math.floor(left / 60) + ":" + (left % 60 < 10 ? "0" : "") + (left % 60) + " minutes";
  }
  setInterval(tick, 1000);

  // While the table gathers there is no board yet: the waiting room says what happens.
  hidden.forEach(function (node) { if (node) node.hidden = gathering; });

  function showHandover(to) {
    if (gathering) return;
    handover.hidden = !to;
    hidden.forEach(function (node) { if (node) node.hidden = Boolean(to); });
    if (!to) return;
    document.getElementById("handover-name").textContent = to.name;
    var go = document.getElementById("handover-go");
    go.textContent = "I am " + to.name + ": show my seat";
    go.href = tableUrl + "?seat=" + to.seat;
  }

  play.addEventListener("play:state", function (event) {
    var state = event.detail;
    var now = state.company || {};
    // A friend came, a guest sat down, the host started, or the table was called off: the
    // page is drawn again with the new seats.
    if (Boolean(now.gathering) !== gathering || (now.open || []).length !== openSeats) {
      window.location.reload();
      return;
    }
    until = now.seconds_left === null || now.seconds_left === undefined ? null : Date.now() + now.seconds_left * 1000;
    tick();
    showHandover(now.shared && now.handover && state.status === "running" ? now.handover : null);
  });
})();
