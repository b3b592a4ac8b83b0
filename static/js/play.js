/* Catleague's live table: a person plays a match against bots. Hand written, no
   dependencies, nothing loaded from elsewhere.

   Long-polls the seat's state (arena/live/views.py table_state: given the version shown, the
   server answers as soon as the table changes, or after about 25 s): the position as the seat sees it
   (from its observation, exactly what a bot in that seat gets), the legal moves when it is
   the person's turn, the time left and the moves so far. Draws the board with the shared board code (board.js) and sends a
   chosen move back. Closing the page loses nothing: the match goes on in the arena, and the
   page picks it up again when it is opened.

   With data-watch on #play the page only watches (arena/watch/views.py watch_state): the
   spectator's view, which no seat's hidden cards reach, no move controls, seat -1. */
(function () {
  "use strict";

  var root = document.getElementById("play");
  var dataNode = document.getElementById("board-data");
  if (!root || !dataNode) return;
  var data = JSON.parse(dataNode.textContent); // { names }; renderer and meta come with the state
  var board = null;
  var stateUrl = root.getAttribute("data-state-url");
  var moveUrl = root.getAttribute("data-move-url");
  var replayUrl = root.getAttribute("data-replay-url");
  var you = Number(root.getAttribute("data-seat"));
  var watching = root.hasAttribute("data-watch"); // a spectator: nothing to play, no token
  var csrfNode = root.querySelector("input[name=csrfmiddlewaretoken]");
  var csrf = csrfNode ? csrfNode.value : "";
  var statusNode = document.getElementById("play-status");
  var clockNode = document.getElementById("play-clock");
  var legalNode = document.getElementById("play-legal");
  var errorNode = document.getElementById("play-error");
  var boardNode = document.getElementById("play-board");
  var logNode = document.getElementById("play-log");
  // Moves on the board (play-board.js): tap what a move takes, then confirm.
  var playBoard = window.CatleaguePlayBoard ? window.CatleaguePlayBoard(boardNode, legalNode) : null;

  var state = null;
  var shownStep = null;
  var shownAsk = null;
  var sentStep = null; // the step whose answer is on its way: its buttons stay away
  var sending = false;
  var deadline = null;
  var timer = null;
  var inFlight = false;
  var seenTakebacks = null; // a takeback asks a step again whose answer was already sent

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }

  function seatName(seat) { return "Seat " + (seat + 1); }
  function nameOf(seat) { return (data.names && data.names[seat]) || seatName(seat); }

  function poll() {
    clearTimeout(timer);
    if (inFlight) return; // one request at a time: the waiting one brings the next change
    inFlight = true;
    var query = [];
    if (board) query.push("meta=have");
    if (state && state.version) query.push("since=" + encodeURIComponent(state.version));
    var join = stateUrl.indexOf("?") < 0 ? "?" : "&"; // a guest's seat: ?seat= is in the url
    fetch(stateUrl + (query.length ? join + query.join("&") : ""), { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status === 503) throw new Error("the site cannot reach its database for a moment");
        if (response.status === 403 || response.status === 404) {
          // A session that ended, a table that is gone: asking again will not help.
          return response.json().then(function (answer) {
            var error = new Error(answer.detail || ("the table answered " + response.status));
            error.final = true;
            throw error;
          });
        }
        if (!response.ok) throw new Error("the table answered " + response.status);
        return response.json();
      })
      .then(function (next) {
        inFlight = false;
        errorNode.hidden = true;
        state = next;
        // The company (friends, a device passed between seats) follows: play-company.js.
        root.dispatchEvent(new CustomEvent("play:state", { detail: next }));
        if (!board && next.renderer && next.meta && window.CatleagueBoard) {
          data.renderer = next.renderer;
          data.meta = next.meta;
          board = window.CatleagueBoard(data);
          shownStep = null;
        }
        draw();
        // One request always waits at the server: the next change comes back at once.
        if (!over()) timer = setTimeout(poll, 0);
      })
      .catch(function (error) {
        inFlight = false;
        errorNode.hidden = false;
        if (error.final) {
          errorNode.textContent = error.message + " Reload the page to go on.";
          return;
        }
        errorNode.textContent = "Lost touch with the table (" + error.message + "); trying again…";
        timer = setTimeout(poll, 3000);
      });
  }

  function over() { return state && (state.status === "finished" || state.status === "failed"); }
  function asked() { return state && state.asked_step !== null && !over(); }

  // The tab says when it is your move, so a table in a background tab still calls you.
  var baseTitle = document.title;
  function drawTitle() {
    var title = asked() ? "Your move · " + baseTitle : over() ? "Game over · " + baseTitle : baseTitle;
    if (document.title !== title) document.title = title;
  }

  function draw() {
    if (seenTakebacks !== null && state.takebacks !== seenTakebacks) {
      sentStep = null;
      shownAsk = null;
      shownStep = null;
    }
    seenTakebacks = state.takebacks;
    drawTitle();
    drawStatus();
    if (state.step !== shownStep || over()) {
      drawBoard();
      drawLog();
      shownStep = state.step;
      if (!sending) shownAsk = null; // a new board: its tap targets are offered again
    }
    drawLegal();
    // The controls (play-controls.js) follow the same state.
    root.dispatchEvent(new CustomEvent("play:state", { detail: state }));
  }

  function drawStatus() {
    deadline = asked() && state.seconds_left !== null ? Date.now() + state.seconds_left * 1000 : null;
    tick();
    if (watching && state.status === "finished" && state.result) {
      statusNode.textContent = "Game over: " + standings(state.result) + ".";
      appendReplayLink();
    } else if (state.status === "finished" && state.result) {
      var r = state.result;
      var text = "Game over: you placed " + r.ranks[you] + " of " + r.ranks.length +
        " with " + r.scores[you] + " points";
      if (r.resigned) text += " (you resigned)";
      else if (r.forfeited.indexOf(you) >= 0) text += " (you forfeited after too many missed moves)";
      if (r.rating) text += ". Your rating against bots: " + Math.round(r.rating[0]) + " → " + Math.round(r.rating[1]);
      statusNode.textContent = text + ".";
      appendReplayLink();
    } else if (state.status === "failed") {
      statusNode.textContent = "The arena could not play this match: " + state.failure;
      if (watching) appendReplayLink();
    } else if (state.rewinding) {
      statusNode.textContent = state.rewinding;
    } else if (state.status === "queued" && state.lost) {
      // Its worker was lost: the game resumes from the moves already made, and the move it
      // was waiting for is asked again (with a fresh clock) unless its answer arrived.
      sentStep = null;
      statusNode.textContent = state.lost + (state.waiting ? " Waiting for the arena: " + state.waiting : "");
    } else if (state.status === "queued") {
      statusNode.textContent = state.waiting ? "Waiting for the arena: " + state.waiting :
        "Waiting for a table in the arena…";
    } else if (watching && state.waiting) {
      statusNode.textContent = state.waiting; // another table plays the same deal
    } else if (asked()) {
      statusNode.textContent = "Your move." + (state.faults ? " Missed moves so far: " +
        state.faults + " of " + state.max_faults + "." : "");
    } else {
      var toMove = state.board && state.board.to_move;
      statusNode.textContent = typeof toMove === "number" && toMove >= 0 && toMove !== you ?
        (watching ? seatName(toMove) + " (" + nameOf(toMove) + ") to move…" :
          "Waiting for " + seatName(toMove) + " (" + nameOf(toMove) + ")…") : "Waiting for the table…";
    }
  }

  function appendReplayLink() {
    var link = el("a", "Watch the replay");
    link.href = replayUrl;
    statusNode.appendChild(document.createTextNode(" "));
    statusNode.appendChild(link);
  }

  // "Seat 2 (name) 1st with 61 points, Seat 1 (name) 2nd with 40": best first.
  function standings(result) {
    var order = result.ranks.map(function (rank, seat) { return seat; });
    order.sort(function (a, b) { return result.ranks[a] - result.ranks[b] || a - b; });
    var places = ["1st", "2nd", "3rd", "4th", "5th", "6th"];
    return order.map(function (seat) {
      var text = seatName(seat) + " (" + nameOf(seat) + ") " + (places[result.ranks[seat] - 1] || result.ranks[seat] + "th");
      if (result.scores[seat] !== null && result.scores[seat] !== undefined) text += " with " + result.scores[seat] + " points";
      if ((result.forfeited || []).indexOf(seat) >= 0) text += " (forfeited)";
      return text;
    }).join(", ");
  }

  function tick() {
    if (deadline === null) { clockNode.textContent = ""; return; }
    var left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
    var minutes = Math.floor(left / 60);
    var seconds = left % 60;
    clockNode.textContent = "Time left for this move: " + minutes + ":" + (seconds < 10 ? "0" : "") + seconds;
    clockNode.classList.toggle("play-clock-low", left <= 15);
  }
  setInterval(tick, 1000);

  function drawLegal() {
    var ask = asked() ? state.asked_step : null;
    if (sending || ask === shownAsk || (ask !== null && ask === sentStep)) return;
    shownAsk = ask;
    legalNode.textContent = "";
    if (playBoard) playBoard.clear();
    if (ask === null) return;
    if (playBoard && state.moves && state.moves.length === state.legal.length) {
      playBoard.offer(state.moves, function (index, label) { send(ask, index, label); });
      return;
    }
    // Many moves of one kind (Cantankerous Cats' token purchases...) fold into a list of their
    // own, so the moves a person weighs fit on a phone's screen.
    var groups = {};
    var order = [];
    state.legal.forEach(function (label, index) {
      var kind = label.split(" ")[0];
      if (!(kind in groups)) { groups[kind] = []; order.push(kind); }
      groups[kind].push(index);
    });
    var fold = state.legal.length > 12;
    order.forEach(function (kind) {
      var target = legalNode;
      if (fold && groups[kind].length > 4) {
        target = el("details", null, "play-group");
        target.appendChild(el("summary", kind + " (" + groups[kind].length + " choices)"));
        legalNode.appendChild(target);
      }
      groups[kind].forEach(function (index) {
        var button = el("button", state.legal[index], "play-move");
        button.type = "button";
        button.setAttribute("data-index", String(index));
        button.addEventListener("click", function () {
          button.classList.add("play-move-chosen");
          send(ask, index, button.textContent);
        });
        target.appendChild(button);
      });
    });
    var first = legalNode.querySelector("button");
    if (first && document.activeElement === document.body) first.focus({ preventScroll: true });
  }

  function send(step, index, label) {
    if (sending) return;
    sending = true;
    Array.prototype.forEach.call(legalNode.querySelectorAll("button"), function (b) { b.disabled = true; });
    statusNode.textContent = "Playing " + label + "…";
    window.CatleaguePost(moveUrl, csrf, { step: step, index: index }).then(function () {
      sending = false;
      sentStep = step;
      legalNode.textContent = "";
      if (playBoard) playBoard.clear();
      // The waiting state request answers when the worker takes the move: no poll here.
    }).catch(function (error) {
      sending = false;
      shownAsk = null;
      errorNode.textContent = "That move was not accepted: " + error.message;
      errorNode.hidden = false;
      if (state) drawLegal(); // its moves again, until the table says otherwise
      poll();
    });
  }

  function lastMove() {
    var log = state.log || [];
    var line = log[log.length - 1];
    return line ? { seat: line.seat, text: line.label, status: line.status } : null;
  }

  function drawBoard() {
    boardNode.textContent = "";
    var position = state.board || {};
    if (!board || !position.view) {
      boardNode.appendChild(el("p", "The cards are being dealt…", "muted"));
      return;
    }
    if (!data.meta.cards) data.meta.cards = {};
    Object.assign(data.meta.cards, state.cards || {}); // the cards this seat has seen so far
    board.render(boardNode, {
      view: position.view, seat: you, hidden: null, move: lastMove(), final: over(), live: true,
      frame: { to_move: position.to_move, scores: position.scores, events: position.events || [] },
    });
    if (playBoard) playBoard.markLast(state.log, you);
  }

  function drawLog() {
    logNode.textContent = "";
    var lastOf = {};
    (state.log || []).forEach(function (line) { lastOf[line.seat] = line.step; });
    (state.log || []).slice().reverse().forEach(function (line) {
      var item = el("li", null, (line.seat === you ? "play-log-you" : "") +
        (lastOf[line.seat] === line.step ? " play-log-last" : ""));
      item.appendChild(el("strong", line.seat === you ? "You" : seatName(line.seat) + " (" + line.who + ")"));
      item.appendChild(document.createTextNode(": " + line.label));
      if (line.status !== "ok") item.appendChild(el("span", " [" + line.status + ": fallback move]", "badge badge-fault"));
      if (line.rule) {
        var rule = el("details", null, "pb-rule");
        rule.appendChild(el("summary", "Rule"));
        rule.appendChild(el("p", line.rule));
        item.appendChild(rule);
      }
      logNode.appendChild(item);
    });
    if (!logNode.children.length) logNode.appendChild(el("li", "No moves yet.", "muted"));
  }

  poll();
})();
