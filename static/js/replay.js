/* Catleague match replay viewer. Hand written, no dependencies, nothing loaded from elsewhere.

   Reads the replay the server built from the stored match log (arena/replay.py, embedded as
   <script type="application/json" id="replay-data">) and draws one frame at a time. The
   drawing code is chosen by the replay's "renderer" (the game's name): a game without one
   keeps the server-rendered move list and result, which the page shows without JavaScript.

   Controls: buttons, a slider over the moves, a "jump to turn" box, a speed choice and a view
   choice (the full view with the hidden cards, or one seat's own view: exactly what that
   seat's engine observation holds). Keys when focus is in the viewer or on the page itself:
   Left/Right step, Space plays or pauses, Home/End go to the deal and the end. */
(function () {
  "use strict";

  var dataNode = document.getElementById("replay-data");
  var root = document.getElementById("replay");
  if (!dataNode || !root) return;
  var data = JSON.parse(dataNode.textContent);
  var renderers = { "cat-lady": renderCatLady };
  var render = renderers[data.renderer];
  if (!data.frames || !data.frames.length || !render) return;

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

  function el(tag, attrs) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (key) {
        if (key === "text") node.textContent = attrs[key];
        else if (key === "cls") node.className = attrs[key];
        else node.setAttribute(key, attrs[key]);
      });
    }
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined || child === false) continue;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  function seatName(seat) {
    return "Seat " + (seat + 1);
  }

  function playerName(seat) {
    return (data.names && data.names[seat]) || seatName(seat);
  }

  // --- navigation ------------------------------------------------------------------------

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
    // The page itself (nothing focused, or the <main> a click or the skip link focused)
    // counts as the viewer; keys typed into anything else are left alone.
    var inViewer = target === document.body || target.tagName === "MAIN" || root.contains(target);
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
    var text = "Move " + index + " of " + last + ", turn " + frame.turn + ": " +
      seatName(move.seat) + " (" + playerName(move.seat) + ") " + move.text;
    if (move.status && move.status !== "ok") text += " [" + move.status + ": fallback move played]";
    return text + (index === last ? ". Game over." : ".");
  }

  function draw() {
    var frame = data.frames[index];
    slider.value = String(index);
    slider.setAttribute("aria-valuetext", "move " + index + " of " + last);
    turnBox.value = String(frame.turn);
    status.textContent = describe();
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
    highlightMove();
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

  // --- Cat Lady --------------------------------------------------------------------------

  var KIND_LABELS = {
    cat: "Cat", food: "Food", toy: "Toy", costume: "Costume", catnip: "Catnip",
    lost_cat: "Lost cat", spray_bottle: "Spray bottle",
  };

  function amounts(counts) {
    return Object.keys(counts || {}).filter(function (k) { return counts[k]; })
      .map(function (k) { return counts[k] + " " + k; }).join(", ");
  }

  function colourDots(colours) {
    var box = el("span", { cls: "cl-colours" });
    (colours || []).forEach(function (colour) {
      box.appendChild(el("span", { cls: "cl-dot cl-dot-" + colour, title: colour }));
    });
    box.appendChild(el("span", { cls: "visually-hidden", text: (colours || []).join(" and ") + " " }));
    return box;
  }

  function cardTile(key, extraClass) {
    var card = data.meta.cards[key] || { name: key, kind: "unknown" };
    var tile = el("div", { cls: "cl-card cl-kind-" + card.kind + (extraClass ? " " + extraClass : "") });
    tile.appendChild(el("span", { cls: "cl-card-kind", text: KIND_LABELS[card.kind] || card.kind }));
    var name = el("span", { cls: "cl-card-name" });
    if (card.colours) name.appendChild(colourDots(card.colours));
    name.appendChild(document.createTextNode(card.name));
    tile.appendChild(name);
    var detail = "";
    if (card.kind === "cat") {
      detail = (card.vp === null ? "★" : card.vp + " VP") + (amounts(card.needs) ? " · eats " + amounts(card.needs) : "");
    } else if (card.food) {
      detail = "+" + amounts(card.food);
    }
    if (detail) tile.appendChild(el("span", { cls: "cl-card-detail", text: detail }));
    return tile;
  }

  function strayTile(name, extraClass) {
    var stray = data.meta.strays[name] || {};
    var tile = el("div", { cls: "cl-card cl-kind-stray" + (extraClass ? " " + extraClass : "") });
    tile.appendChild(el("span", { cls: "cl-card-kind", text: "Stray" }));
    var label = el("span", { cls: "cl-card-name" });
    if (stray.colours) label.appendChild(colourDots(stray.colours));
    label.appendChild(document.createTextNode(name));
    tile.appendChild(label);
    if (stray.needs) {
      var diet = amounts(stray.needs);
      tile.appendChild(el("span", { cls: "cl-card-detail", text: diet ? "eats " + diet : "eats as her card says" }));
    }
    if (stray.note) tile.title = stray.note;
    return tile;
  }

  function takenLine(move) {
    var match = move && /^(take|spray) (row|col) ([123])$/.exec(move.text);
    return match ? { action: match[1], axis: match[2], number: Number(match[3]) } : null;
  }

  function gridBlock(observed, move) {
    var token = observed.token; // "row 2", "col 1" or null
    var line = takenLine(move);
    var grid = el("div", { cls: "cl-grid", role: "group", "aria-label": "The 3 by 3 grid" +
      (token ? "; the cat token blocks " + token : "; the cat token is not placed yet") });
    grid.appendChild(el("div", { cls: "cl-corner", "aria-hidden": "true" }));
    for (var c = 1; c <= 3; c++) grid.appendChild(marker("col " + c, token));
    for (var r = 1; r <= 3; r++) {
      grid.appendChild(marker("row " + r, token));
      for (c = 1; c <= 3; c++) {
        var key = observed.grid[(r - 1) * 3 + (c - 1)];
        var fresh = line && line.action === "take" &&
          ((line.axis === "row" && line.number === r) || (line.axis === "col" && line.number === c));
        var cell = key ? cardTile(key, fresh ? "cl-fresh" : "") :
          el("div", { cls: "cl-card cl-empty", text: "empty" });
        cell.setAttribute("aria-label", "Row " + r + ", column " + c + ": " +
          (key ? (data.meta.cards[key] || { name: key }).name : "empty") + (fresh ? " (just refilled)" : ""));
        grid.appendChild(cell);
      }
    }
    return grid;
  }

  function marker(lineName, token) {
    var blocked = token === lineName;
    var node = el("div", { cls: "cl-marker cl-marker-" + lineName.split(" ")[0] + (blocked ? " cl-token" : "") });
    node.appendChild(el("span", { cls: "cl-marker-label", text: lineName.replace("col", "col.") }));
    if (blocked) node.appendChild(el("span", { cls: "cl-token-badge", text: "cat token" }));
    return node;
  }

  function section(title) {
    var box = el("section", { cls: "cl-section" });
    box.appendChild(el("h4", { text: title }));
    return box;
  }

  function tableBlock(ctx) {
    var observed = ctx.view;
    var side = el("div", { cls: "cl-side" });
    var strays = section("Face-up strays");
    var strayRow = el("div", { cls: "cl-row" });
    (observed.strays || []).forEach(function (name) { strayRow.appendChild(strayTile(name)); });
    if (!(observed.strays || []).length) strayRow.appendChild(el("p", { cls: "muted", text: "None left." }));
    strays.appendChild(strayRow);
    side.appendChild(strays);

    var counts = section("Table");
    var discard = Object.keys(observed.discard || {}).reduce(function (n, k) { return n + observed.discard[k]; }, 0);
    counts.appendChild(el("dl", { cls: "cl-counts" },
      el("dt", { text: "Deck" }), el("dd", { text: String(observed.deck_size) }),
      el("dt", { text: "Discard" }), el("dd", { text: String(discard) }),
      el("dt", { text: "VP tokens left" }), el("dd", { text: String(observed.vp_tokens_left) })));
    side.appendChild(counts);

    var hiddenBox = section(ctx.hidden ? "Hidden from every player" : "Hidden from this seat");
    hiddenBox.classList.add("cl-hidden");
    if (ctx.hidden) {
      hiddenBox.appendChild(el("p", { cls: "cl-label", text: "Next cards in the deck, in order" }));
      var next = el("ol", { cls: "cl-next" });
      ctx.hidden.next_cards.forEach(function (key) { next.appendChild(el("li", null, cardTile(key, "cl-small"))); });
      if (!ctx.hidden.next_cards.length) next.appendChild(el("li", { cls: "muted", text: "The deck is empty." }));
      hiddenBox.appendChild(next);
      hiddenBox.appendChild(el("p", { cls: "cl-label", text: "Removed unseen at the deal: " +
        (ctx.hidden.removed.length ? ctx.hidden.removed.map(function (k) { return (data.meta.cards[k] || { name: k }).name; }).join(", ") : "none") }));
      hiddenBox.appendChild(el("p", { cls: "cl-label", text: "Strays never dealt: " +
        (ctx.hidden.strays_face_down.join(", ") || "none") }));
    } else {
      hiddenBox.appendChild(el("p", { cls: "cl-secret", text: "Deck order: hidden (" + observed.deck_size + " cards)." }));
      hiddenBox.appendChild(el("p", { cls: "cl-secret", text: "Removed unseen at the deal: " + observed.removed_unseen + " cards, which ones hidden." }));
      hiddenBox.appendChild(el("p", { cls: "cl-secret", text: "Strays not dealt face up: hidden." }));
      if (observed.unseen) {
        var details = el("details", null, el("summary", { text: "Cards this seat has not seen yet (deck and removed, any order)" }));
        var list = el("ul", { cls: "cl-unseen" });
        Object.keys(observed.unseen).forEach(function (key) {
          list.appendChild(el("li", { text: observed.unseen[key] + " × " + (data.meta.cards[key] || { name: key }).name }));
        });
        details.appendChild(list);
        hiddenBox.appendChild(details);
      }
      if (observed.legal_actions && observed.legal_actions.length) {
        hiddenBox.appendChild(el("p", { cls: "cl-label", text: "Legal moves now: " + observed.legal_actions.join(" · ") }));
      }
    }
    side.appendChild(hiddenBox);
    return side;
  }

  function handSummary(hand) {
    if (!Array.isArray(hand)) {
      return el("p", { cls: "cl-secret", text: "Hand: " + hand + " cards (hidden)" });
    }
    var groups = {};
    var order = [];
    hand.forEach(function (key) {
      var card = data.meta.cards[key] || { name: key, kind: "unknown" };
      var label = card.name;
      if (!(label in groups)) { groups[label] = 0; order.push(label); }
      groups[label] += 1;
    });
    if (!order.length) return el("p", { cls: "muted", text: "Hand: empty" });
    var list = el("ul", { cls: "cl-hand" });
    order.forEach(function (label) { list.appendChild(el("li", { text: label + (groups[label] > 1 ? " ×" + groups[label] : "") })); });
    return el("div", null, el("p", { cls: "cl-label", text: "Hand (" + hand.length + ")" }), list);
  }

  function playerBlock(ctx, tableau) {
    var seat = tableau.seat;
    var frame = ctx.frame;
    var toMove = frame.to_move === seat;
    var box = el("article", { cls: "cl-player" + (toMove ? " cl-to-move" : "") + (ctx.seat === seat ? " cl-viewer" : ""),
      "aria-label": seatName(seat) + ", " + playerName(seat) });
    var header = el("header", { cls: "cl-player-head" },
      el("h4", null, seatName(seat) + " ", el("span", { cls: "muted", text: playerName(seat) })),
      el("p", { cls: "cl-score" }, el("span", { cls: "cl-score-label", text: ctx.final ? "Final score " : "Score now " }),
        el("strong", { text: String(frame.scores[seat]) })));
    if (toMove) header.appendChild(el("span", { cls: "badge badge-accent", text: "to move" }));
    if (ctx.seat === seat) header.appendChild(el("span", { cls: "badge", text: "this view" }));
    box.appendChild(header);

    var cats = el("div", { cls: "cl-row cl-cats" });
    tableau.cats.forEach(function (key) { cats.appendChild(cardTile(key, "cl-small")); });
    tableau.strays.forEach(function (name) { cats.appendChild(strayTile(name, "cl-small")); });
    if (!tableau.cats.length && !tableau.strays.length) cats.appendChild(el("p", { cls: "muted", text: "No cats yet." }));
    box.appendChild(el("p", { cls: "cl-label", text: "Cats (" + (tableau.cats.length + tableau.strays.length) + ")" }));
    box.appendChild(cats);

    var food = el("ul", { cls: "cl-food", "aria-label": "Food tokens" });
    (data.meta.food_tokens || Object.keys(tableau.food)).forEach(function (token) {
      food.appendChild(el("li", { cls: "cl-food-" + token }, el("span", { cls: "cl-food-chip", "aria-hidden": "true" }),
        token + " " + (tableau.food[token] || 0)));
    });
    box.appendChild(el("p", { cls: "cl-label", text: "Food" }));
    box.appendChild(food);
    box.appendChild(handSummary(tableau.hand));
    if (tableau.vp_tokens) box.appendChild(el("p", { text: "VP tokens: " + tableau.vp_tokens }));
    return box;
  }

  function renderCatLady(target, ctx) {
    var board = el("div", { cls: "cl-board" + (ctx.seat === null ? " cl-full" : " cl-seat-view") });
    var table = el("div", { cls: "cl-table" });
    var gridBox = el("div", { cls: "cl-grid-box" });
    gridBox.appendChild(gridBlock(ctx.view, ctx.move));
    table.appendChild(gridBox);
    table.appendChild(tableBlock(ctx));
    board.appendChild(table);
    var players = el("div", { cls: "cl-players" });
    (ctx.view.tableaux || []).forEach(function (tableau) { players.appendChild(playerBlock(ctx, tableau)); });
    board.appendChild(players);
    target.appendChild(board);
  }

  draw();
})();
