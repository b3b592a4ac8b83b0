/* Catleague match replay viewer. Hand written, no dependencies, nothing loaded from elsewhere.

   Reads the replay the server built from the stored match log (arena/replay.py, embedded as
   <script type="application/json" id="replay-data">) and draws one frame at a time with the
   shared board code (board.js), chosen by the replay's "renderer": a game without one
   keeps the server-rendered move list and result, which the page shows without JavaScript.

   Controls: buttons, a slider over the moves, a "jump to turn" box, a speed choice and a view
   choice (the full view with the hidden cards, or one seat's own view: exactly what that
   seat's engine observation holds). Keys when focus is in the viewer or on the page itself:
   Left/Right step, Space plays or pauses, Home/End go to the deal and the end.

   A link may open the replay at a move: "#move=N" shows the position after move N (the
   move list's numbering, from 1; 0 is the deal), e.g. a version's triage page linking to the
   decisive move of a lost match.

   The review after a live game (data.reviews, arena/review.py): in a reviewed seat's own
   view, the position before each of that seat's moves gets a panel with the move played, the
   house MCTS's choice and every candidate's win chance; moves that gave away a lot are
   flagged. It is only ever in the data of a finished game. */
(function () {
  "use strict";

  var dataNode = document.getElementById("replay-data");
  var root = document.getElementById("replay");
  if (!dataNode || !root) return;
  var data = JSON.parse(dataNode.textContent);
  var board = window.CatleagueBoard && window.CatleagueBoard(data);
  if (!data.frames || !data.frames.length || !board) return;
  var render = board.render;
  var el = board.el;
  var seatName = board.seatName;
  var playerName = board.playerName;

  // Each frame after the first holds only what changed (arena/replay.py expand_frames).
  (function expandFrames() {
    var whole = {};
    data.frames.forEach(function (frame) {
      whole = Object.assign({}, whole);
      Object.keys(frame.public).forEach(function (key) {
        var value = frame.public[key];
        if (key === "tableaux" && !Array.isArray(value)) {
          var tableaux = whole.tableaux.slice();
          Object.keys(value).forEach(function (seat) { tableaux[Number(seat)] = value[seat]; });
          whole.tableaux = tableaux;
        } else {
          whole[key] = value;
        }
      });
      frame.public = whole;
    });
  })();

  var app = root.querySelector(".replay-app");
  var stage = document.getElementById("replay-stage");
  var status = document.getElementById("replay-status");
  var slider = document.getElementById("replay-slider");
  var turnBox = document.getElementById("replay-turn");
  var speedBox = document.getElementById("replay-speed");
  var viewBox = document.getElementById("replay-view");
  var playButton = root.querySelector('[data-action="play"]');
  var moveList = document.getElementById("move-list");
  var last = data.frames.length - 1;
  var index = 0;
  var view = "full";
  var timer = null;

  app.hidden = false;
  slider.max = String(last);
  turnBox.max = String(data.frames[last].turn);

  // --- small DOM helpers (text only: no markup is ever built from data) -------------------



  function go(target) {
    index = Math.max(0, Math.min(last, target));
    if (index === last) stop();
    draw();
  }

  function step(delta) {
    stop();
    go(index + delta);
  }

  function play() {
    if (index === last) index = 0;
    playButton.textContent = "Pause";
    playButton.setAttribute("aria-pressed", "true");
    status.setAttribute("aria-live", "off"); // a status every few hundred ms is noise
    timer = window.setInterval(function () {
      go(index + 1);
    }, Number(speedBox.value) || 700);
    draw();
  }

  function stop() {
    if (timer === null) return;
    window.clearInterval(timer);
    timer = null;
    playButton.textContent = "Play";
    playButton.setAttribute("aria-pressed", "false");
    status.setAttribute("aria-live", "polite");
  }

  function togglePlay() {
    if (timer === null) play();
    else {
      stop();
      draw();
    }
  }

  function frameForTurn(turn) {
    for (var i = 0; i <= last; i++) {
      if (data.frames[i].turn >= turn) return i;
    }
    return last;
  }

  root.querySelector('[data-action="first"]').addEventListener("click", function () { stop(); go(0); });
  root.querySelector('[data-action="back"]').addEventListener("click", function () { step(-1); });
  root.querySelector('[data-action="forward"]').addEventListener("click", function () { step(1); });
  root.querySelector('[data-action="last"]').addEventListener("click", function () { stop(); go(last); });
  playButton.addEventListener("click", togglePlay);
  slider.addEventListener("input", function () { stop(); go(Number(slider.value)); });
  turnBox.addEventListener("change", function () {
    var turn = parseInt(turnBox.value, 10);
    if (!isNaN(turn)) { stop(); go(frameForTurn(turn)); }
  });
  speedBox.addEventListener("change", function () {
    if (timer !== null) { stop(); play(); }
  });
  viewBox.addEventListener("change", function () {
    view = viewBox.value;
    draw();
  });
  if (moveList) {
    moveList.addEventListener("click", function (event) {
      var item = event.target.closest("[data-move]");
      if (item) { stop(); go(Number(item.getAttribute("data-move"))); }
    });
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    // The page itself (nothing focused, or the <main> a click or the skip link focused) and
    // the move list (a click on a move focuses its rule's fold-out) count as the viewer; keys
    // typed into anything else are left alone.
    var inViewer = target === document.body || target.tagName === "MAIN" || root.contains(target) ||
      (moveList !== null && moveList.contains(target));
    if (!inViewer) return;
    var tag = target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || target.isContentEditable) return;
    var onControl = tag === "BUTTON" || tag === "A" || tag === "SUMMARY";
    switch (event.key) {
      case "ArrowLeft": step(-1); break;
      case "ArrowRight": step(1); break;
      case "Home": stop(); go(0); break;
      case "End": stop(); go(last); break;
      case " ":
      case "Spacebar":
        if (onControl) return; // the focused button's own Space press
        togglePlay();
        break;
      default: return;
    }
    event.preventDefault();
  });

  // --- drawing ---------------------------------------------------------------------------

  function describe() {
    var frame = data.frames[index];
    if (index === 0) return "Deal: before the first move. Turn 0 of " + data.frames[last].turn + ".";
    var move = data.moves[index - 1];
    // The table's words, cards by printed name (arena/replay.py); a replay cached before
    // they existed has the engine's short text only.
    var text = "Move " + index + " of " + last + ", turn " + frame.turn + ": " +
      seatName(move.seat) + " (" + playerName(move.seat) + "): " + (move.label || move.text);
    if (move.status && move.status !== "ok") text += " [" + move.status + ": fallback move played]";
    return text + (index === last ? ". Game over." : ".");
  }

  function draw() {
    var frame = data.frames[index];
    slider.value = String(index);
    slider.setAttribute("aria-valuetext", "move " + index + " of " + last);
    turnBox.value = String(frame.turn);
    status.textContent = describe();
    showRule(index > 0 ? data.moves[index - 1].rule : "");
    root.querySelector('[data-action="first"]').disabled = index === 0;
    root.querySelector('[data-action="back"]').disabled = index === 0;
    root.querySelector('[data-action="forward"]').disabled = index === last;
    root.querySelector('[data-action="last"]').disabled = index === last;
    stage.textContent = "";
    var seat = view === "full" ? null : Number(view);
    var observed = seat === null ? frame.public : Object.assign({}, frame.public, frame.own[seat]);
    render(stage, {
      frame: frame, view: observed, seat: seat, hidden: seat === null ? frame.hidden : null,
      move: index > 0 ? data.moves[index - 1] : null, final: index === last,
    });
    markLastMoves(seat);
    highlightMove();
    drawReview(seat);
  }

  // The rule the move follows, a tap away under the status line as on the live table; an
  // open rule stays open while stepping.
  var ruleBox = document.getElementById("replay-rule");
  function showRule(rule) {
    if (!ruleBox) return;
    ruleBox.hidden = !rule;
    ruleBox.querySelector("p").textContent = rule || "";
  }

  // Each seat's last move so far, noted on its block of the board as the live table does
  // (play-board.js markLast).
  function markLastMoves(seat) {
    if (!window.CatleaguePlayBoard) return;
    var played = data.moves.slice(0, index).map(function (move) {
      return { seat: move.seat, label: move.label || move.text, rule: move.rule };
    });
    window.CatleaguePlayBoard(stage, null).markLast(played, seat);
  }

  function highlightMove() {
    if (!moveList) return;
    var previous = moveList.querySelector('[aria-current="step"]');
    if (previous) previous.removeAttribute("aria-current");
    var current = document.getElementById("move-" + index);
    if (!current) return;
    current.setAttribute("aria-current", "step");
    var top = current.offsetTop - moveList.offsetTop;
    if (top < moveList.scrollTop || top > moveList.scrollTop + moveList.clientHeight - current.offsetHeight) {
      moveList.scrollTop = Math.max(0, top - moveList.clientHeight / 2);
    }
  }

  // --- the review after the game --------------------------------------------------------

  var reviewPanel = document.getElementById("review-panel");
  var reviewed = {}; // seat -> {step -> reviewed move}, for the reviews that are done
  (data.reviews || []).forEach(function (entry) {
    if (entry.status !== "done" || !entry.review) return;
    var steps = {};
    entry.review.moves.forEach(function (move) { steps[move.step] = move; });
    reviewed[entry.seat] = steps;
  });

  function reviewedSteps(seat) {
    return Object.keys(reviewed[seat] || {}).map(Number).sort(function (a, b) { return a - b; });
  }

  function percentText(chance) { return Math.round(chance * 100) + "%"; }

  function reviewButton(label, target) {
    var button = el("button", { cls: "button-small button-secondary", type: "button" }, label);
    if (target === null) button.disabled = true;
    else button.addEventListener("click", function () {
      stop();
      go(target);
      // The panel was drawn anew: keep the keyboard on the same button where it still works.
      var again = Array.prototype.filter.call(reviewPanel.querySelectorAll("button"), function (b) {
        return b.textContent === label && !b.disabled;
      })[0];
      (again || reviewPanel.querySelector("button:not([disabled])") || playButton).focus();
    });
    return button;
  }

  // The panel stands at the position the person decided from: frame `step` is the position
  // before move `step` + 1.
  function drawReview(seat) {
    if (!reviewPanel) return;
    var move = seat === null || !reviewed[seat] ? null : reviewed[seat][index];
    reviewPanel.textContent = "";
    reviewPanel.hidden = !move;
    reviewPanel.classList.toggle("is-flagged", !!(move && move.flagged));
    if (!move) return;
    reviewPanel.appendChild(el("h3", null, "Review of move " + (move.step + 1) + " (" + seatName(seat) + ")"));
    // Labels in the table's words (cards by name); reviews made before them have the
    // engine's short text only.
    var played = el("p", null, "You played: ");
    played.appendChild(el("strong", null, move.played_label || move.played));
    reviewPanel.appendChild(played);
    var best = el("p", null, "The house MCTS would play: ");
    best.appendChild(el("strong", null, move.best_label || move.best));
    reviewPanel.appendChild(best);
    var verdict = move.played === move.best ? "Your move is the MCTS's choice." :
      move.flagged ? "Flagged: this move gave away " + percentText(move.loss) + " win chance." :
      "It gave away " + percentText(move.loss) + " win chance.";
    reviewPanel.appendChild(el("p", { cls: move.flagged ? "review-flag" : "muted" }, verdict));
    var list = el("ol", { cls: "review-candidates", "aria-label": "Win chance of each candidate move" });
    move.candidates.forEach(function (candidate) {
      var isPlayed = candidate.text === move.played;
      var isBest = candidate.text === move.best;
      var item = el("li", { cls: (isPlayed ? "is-played " : "") + (isBest ? "is-best" : "") });
      var label = el("span", { cls: "review-move" }, candidate.label || candidate.text);
      if (isBest || isPlayed) {
        var tags = [];
        if (isPlayed) tags.push("your move");
        if (isBest) tags.push("MCTS choice");
        label.appendChild(document.createTextNode(" "));
        label.appendChild(el("span", { cls: "review-tag" }, "(" + tags.join(", ") + ")"));
      }
      item.appendChild(label);
      item.appendChild(el("span", { cls: "review-win" }, percentText(candidate.win)));
      var bar = el("span", { cls: "review-bar", "aria-hidden": "true" });
      var fill = el("span", null);
      fill.style.width = percentText(candidate.win);
      bar.appendChild(fill);
      item.appendChild(bar);
      list.appendChild(item);
    });
    reviewPanel.appendChild(list);
    var steps = reviewedSteps(seat);
    var at = steps.indexOf(index);
    var nextFlag = steps.filter(function (s) { return s > index && reviewed[seat][s].flagged; })[0];
    var nav = el("div", { cls: "review-nav" });
    nav.appendChild(reviewButton("Previous reviewed move", at > 0 ? steps[at - 1] : null));
    nav.appendChild(reviewButton("Next reviewed move", at < steps.length - 1 ? steps[at + 1] : null));
    nav.appendChild(reviewButton("Next flagged move", nextFlag === undefined ? null : nextFlag));
    reviewPanel.appendChild(nav);
  }

  function openReview(seat) {
    stop();
    viewBox.value = String(seat);
    view = String(seat);
    var steps = reviewedSteps(seat);
    go(steps.length ? steps[0] : 0);
    root.scrollIntoView({ block: "start" });
  }

  Array.prototype.forEach.call(document.querySelectorAll("[data-review-seat]"), function (button) {
    var seat = Number(button.getAttribute("data-review-seat"));
    if (!reviewed[seat]) return;
    button.hidden = false;
    button.addEventListener("click", function () { openReview(seat); });
  });

  function linkedMove() {
    var found = /^#move=(\d+)$/.exec(window.location.hash);
    return found ? Number(found[1]) : null;
  }

  function openAtMove(move) {
    stop();
    go(move);
    root.scrollIntoView({ block: "start" });
  }

  window.addEventListener("hashchange", function () {
    var move = linkedMove();
    if (move !== null) openAtMove(move);
  });

  var reviewedSeats = Object.keys(reviewed).map(Number);
  if (window.location.hash === "#review" && reviewedSeats.length) openReview(reviewedSeats[0]);
  else if (linkedMove() !== null) openAtMove(linkedMove());
  else draw();
})();
