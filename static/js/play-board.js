/* Catleague's live table, moves on the board: every legal move is made by tapping what it
   takes (a row or column of the grid, a stray, a card in the hand, the hand itself). The
   first tap selects and highlights what the move would take; a second, on "Play this move",
   makes it, since no move can be taken back (except in an unrated game). Hand written, no dependencies.

   The server says each move in words ("moves": label, rule, picks, in the order of the
   legal moves; arena/live/moves.py from the engine's describe_move). A pick names the board
   thing it takes; board.js marks those things with data attributes. A move whose things the
   board does not show (or that takes nothing: end the turn, pass) is a button in the panel.

   CatleaguePlayBoard(boardNode, panelNode) returns
   { offer(moves, choose), clear(), lock(), markLast(log, you) }. */
(function () {
  "use strict";

  window.CatleaguePlayBoard = function (boardNode, panelNode) {
    var moves = [];
    var choose = null;
    var byPick = {};
    var selectedPick = null;
    var chosen = null;
    var locked = false;

    function el(tag, text, cls) {
      var node = document.createElement(tag);
      if (text !== undefined && text !== null) node.textContent = text;
      if (cls) node.className = cls;
      return node;
    }

    // The board things a pick names (the first is the one tapped).
    function things(pick) {
      var at = pick.indexOf(":");
      var kind = at < 0 ? pick : pick.slice(0, at);
      var value = at < 0 ? "" : pick.slice(at + 1);
      var q = function (sel) { return Array.prototype.slice.call(boardNode.querySelectorAll(sel)); };
      var esc = function (text) { return text.replace(/["\\]/g, "\\$&"); };
      if (kind === "line") {
        var found = q('[data-line="' + esc(value) + '"]');
        var parts = value.split(" ");
        var n = Number(parts[1]);
        for (var slot = 1; slot <= 9; slot++) {
          var row = Math.floor((slot - 1) / 3) + 1;
          var col = (slot - 1) % 3 + 1;
          if ((parts[0] === "row" && row === n) || (parts[0] === "col" && col === n)) {
            found = found.concat(q('[data-slot="' + slot + '"]'));
          }
        }
        return found;
      }
      if (kind === "slot") return q('[data-slot="' + esc(value) + '"]');
      if (kind === "stray") return q('.cl-side [data-stray="' + esc(value) + '"]');
      if (kind === "hand") return q(".cl-viewer [data-hand]");
      if (kind === "card") {
        var mine = q('.cl-viewer [data-card="' + esc(value) + '"]');
        if (!mine.length) mine = q('.cc-window [data-card="' + esc(value) + '"]');
        return mine.length ? mine.slice(0, 1) : q('[data-card="' + esc(value) + '"]').slice(0, 1);
      }
      return [];
    }

    function clearMarks() {
      Array.prototype.forEach.call(boardNode.querySelectorAll(".pb-target, .pb-selected, .pb-chosen"), function (node) {
        node.classList.remove("pb-target", "pb-selected", "pb-chosen");
        if (node.hasAttribute("data-pb")) {
          node.removeAttribute("tabindex");
          node.removeAttribute("role");
          node.removeAttribute("aria-pressed");
          node.removeAttribute("aria-label");
          node.removeAttribute("data-pb");
        }
      });
    }

    function clear() {
      moves = [];
      byPick = {};
      selectedPick = null;
      chosen = null;
      locked = false;
      clearMarks();
      panelNode.textContent = "";
      panelNode.hidden = true;
    }

    function offer(nextMoves, onChoose) {
      clear();
      moves = nextMoves;
      choose = onChoose;
      var loose = [];
      moves.forEach(function (move, index) {
        var placed = false;
        (move.picks || []).forEach(function (pick) {
          if (!things(pick).length) return;
          (byPick[pick] = byPick[pick] || []).push(index);
          placed = true;
        });
        if (!placed) loose.push(index);
      });
      Object.keys(byPick).forEach(function (pick) {
        var labels = byPick[pick].map(function (i) { return moves[i].label; });
        // The first thing of a pick is its tap target (a line's marker, a card); the rest of
        // what it takes lights up when it is selected.
        var target = things(pick)[0];
        if (target.hasAttribute("data-pb")) {
          target.setAttribute("aria-label", target.getAttribute("aria-label") + "; " + labels.join("; "));
          return;
        }
        target.setAttribute("data-pb", pick);
        target.classList.add("pb-target");
        target.setAttribute("tabindex", "0");
        target.setAttribute("role", "button");
        target.setAttribute("aria-pressed", "false");
        target.setAttribute("aria-label", "Choose: " + labels.join("; "));
        // A card in the hand is a target inside another (the whole hand, for Picky Eater):
        // a tap chooses the innermost only.
        target.addEventListener("click", function (event) {
          event.stopPropagation();
          select(target.getAttribute("data-pb"));
        });
        target.addEventListener("keydown", function (event) {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            event.stopPropagation();
            select(target.getAttribute("data-pb"));
          }
        });
      });
      panelNode.hidden = false;
      drawPanel(loose);
    }

    function select(pick) {
      if (locked || !byPick[pick]) return;
      selectedPick = pick;
      var list = byPick[pick];
      chosen = list.length === 1 ? list[0] : null;
      mark();
      drawPanel(null);
      // What the move takes stays in sight above the panel (on a phone the panel covers the
      // foot of the screen).
      var taken = things(pick);
      var middle = taken[Math.floor(taken.length / 2)];
      if (middle && middle.scrollIntoView) middle.scrollIntoView({ block: "center" });
    }

    function mark() {
      Array.prototype.forEach.call(boardNode.querySelectorAll(".pb-selected, .pb-chosen"), function (node) {
        node.classList.remove("pb-selected", "pb-chosen");
        if (node.hasAttribute("data-pb")) node.setAttribute("aria-pressed", "false");
      });
      if (selectedPick) {
        things(selectedPick).forEach(function (node) {
          node.classList.add("pb-selected");
          if (node.hasAttribute("data-pb")) node.setAttribute("aria-pressed", "true");
        });
      }
      if (chosen !== null) {
        (moves[chosen].picks || []).forEach(function (pick) {
          things(pick).forEach(function (node) { node.classList.add("pb-chosen"); });
        });
      }
    }

    function moveButton(index) {
      var move = moves[index];
      var item = el("div", null, "pb-move");
      var button = el("button", move.label, "play-move" + (chosen === index ? " play-move-chosen" : ""));
      button.type = "button";
      button.setAttribute("data-index", String(index));
      button.setAttribute("aria-pressed", chosen === index ? "true" : "false");
      button.addEventListener("click", function () {
        if (locked) return;
        chosen = index;
        mark();
        drawPanel(null);
      });
      item.appendChild(button);
      if (move.rule) {
        var rule = el("details", null, "pb-rule");
        rule.appendChild(el("summary", "Rule"));
        rule.appendChild(el("p", move.rule));
        item.appendChild(rule);
      }
      return item;
    }

    var loosePlain = [];

    function drawPanel(loose) {
      if (loose) loosePlain = loose;
      panelNode.textContent = "";
      var picks = Object.keys(byPick);
      var kinds = {};
      picks.forEach(function (pick) { kinds[pick.split(":")[0]] = true; });
      var parts = [];
      if (kinds.line) parts.push("a row or column");
      if (kinds.slot) parts.push("a card in the grid");
      if (kinds.stray) parts.push("a stray");
      if (kinds.card || kinds.hand) parts.push("a card in your hand");
      var hint = picks.length ? "Tap what your move takes: " + parts.join(", ") +
        " (highlighted on the board)." : "";
      if (selectedPick && byPick[selectedPick].length > 1) {
        var listed = byPick[selectedPick];
        panelNode.appendChild(el("p", "Moves with what you tapped (" + listed.length + "): choose one.", "pb-hint"));
        var box = el("div", null, "pb-moves");
        listed.forEach(function (index) { box.appendChild(moveButton(index)); });
        panelNode.appendChild(box);
      } else if (hint && !selectedPick) {
        var line = el("p", hint + " ", "pb-hint");
        var show = el("button", "Show me", "button pb-show");
        show.type = "button";
        show.addEventListener("click", function () {
          var first = boardNode.querySelector(".pb-target");
          if (!first) return;
          first.scrollIntoView({ block: "center" });
          first.focus({ preventScroll: true });
        });
        line.appendChild(show);
        panelNode.appendChild(line);
      }
      if (loosePlain.length && chosen === null) {
        var plain = el("div", null, "pb-moves pb-plain");
        loosePlain.forEach(function (index) { plain.appendChild(moveButton(index)); });
        panelNode.appendChild(plain);
      }
      if (chosen !== null) {
        var bar = el("div", null, "pb-confirm");
        // Only an unrated game (#play's data-rated) allows a takeback, with its own button.
        var table = boardNode.closest("[data-rated]");
        var unrated = table && table.getAttribute("data-rated") === "false";
        bar.appendChild(el("p", "Play " + moves[chosen].label + "?" +
          (unrated ? "" : " It cannot be taken back."), "pb-question"));
        if (moves[chosen].rule) {
          var rule = el("details", null, "pb-rule");
          rule.appendChild(el("summary", "Rule"));
          rule.appendChild(el("p", moves[chosen].rule));
          bar.appendChild(rule);
        }
        var play = el("button", "Play this move", "button button-primary pb-play");
        play.type = "button";
        play.addEventListener("click", function () {
          if (locked) return;
          locked = true;
          play.disabled = true;
          choose(chosen, moves[chosen].label);
        });
        var cancel = el("button", "Cancel", "button pb-cancel");
        cancel.type = "button";
        cancel.addEventListener("click", function () {
          selectedPick = null;
          chosen = null;
          mark();
          drawPanel(null);
        });
        bar.appendChild(play);
        bar.appendChild(cancel);
        panelNode.appendChild(bar);
        play.focus({ preventScroll: true });
      }
    }

    function lock() {
      locked = true;
      Array.prototype.forEach.call(panelNode.querySelectorAll("button"), function (b) { b.disabled = true; });
    }

    // The last move of each seat, on its player's block of the board.
    function markLast(log, you) {
      var last = {};
      (log || []).forEach(function (line) { last[line.seat] = line; });
      Object.keys(last).forEach(function (seat) {
        var block = boardNode.querySelector('[data-seat="' + seat + '"]');
        if (!block) return;
        var line = last[seat];
        var note = el("p", null, "pb-last");
        note.appendChild(el("strong", you < 0 ? "Last move: " : (Number(seat) === you ? "Your" : "Their") + " last move: "));
        note.appendChild(document.createTextNode(line.label));
        if (line.rule) note.title = line.rule;
        var head = block.querySelector("header");
        block.insertBefore(note, head ? head.nextSibling : block.firstChild);
      });
    }

    return { offer: offer, clear: clear, lock: lock, markLast: markLast };
  };
})();
