/* Catleague's game boards: draws one position of a match from a seat's observation (or the
   full view). Hand written, no dependencies, nothing loaded from elsewhere. Shared by the
   replay viewer (replay.js) and the live table (play.js).

   CatleagueBoard(data) takes what the server sent: "renderer" (the game's drawing code),
   "meta" (the match's constant facts: card data, strays...) and "names" (who sits where), and
   returns { render(target, ctx), el, seatName, playerName } or null for a game it cannot draw.
   ctx: { view: the observation to draw, seat: the viewing seat, -1 for a spectator (what every
   seat sees alike) or null for the full view,
   frame: { to_move, scores, events, legal_moves }, hidden, move: the last move { seat, text }, final,
   live: true at a live table, where positions are not scored as they are played }. */
(function () {
  "use strict";

  window.CatleagueBoard = function (data) {
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

    // The seat to move's legal moves: in the table's words where the replay has them (the
    // frame's legal_moves, cards by printed name), else the engine's short texts of its view.
    function legalMovesLine(ctx, observed) {
      var words = ctx.frame && ctx.frame.legal_moves;
      var moves = words && words.length ? words : observed.legal_actions;
      return el("p", { cls: "cl-label", text: "Legal moves now: " + moves.join(" · ") });
    }

    // --- navigation ------------------------------------------------------------------------

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
      tile.setAttribute("data-stray", name);
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
          // Where the card lies, for screen readers (an aria-label on a plain div is not read).
          cell.insertBefore(el("span", { cls: "visually-hidden", text: "Row " + r + ", column " + c + ": " }), cell.firstChild);
          cell.setAttribute("data-slot", String((r - 1) * 3 + c));
          if (fresh) cell.appendChild(el("span", { cls: "visually-hidden", text: " (just refilled)" }));
          grid.appendChild(cell);
        }
      }
      return grid;
    }

    function marker(lineName, token) {
      var blocked = token === lineName;
      var node = el("div", { cls: "cl-marker cl-marker-" + lineName.split(" ")[0] + (blocked ? " cl-token" : ""), "data-line": lineName });
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

      var hiddenBox = section(ctx.hidden ? "Hidden from every player" : ctx.seat < 0 ? "Hidden from the spectators" : "Hidden from this seat");
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
          var details = el("details", null, el("summary", { text: (ctx.seat < 0 ? "Cards not seen yet" : "Cards this seat has not seen yet") + " (deck and removed, any order)" }));
          var list = el("ul", { cls: "cl-unseen" });
          Object.keys(observed.unseen).forEach(function (key) {
            list.appendChild(el("li", { text: observed.unseen[key] + " × " + (data.meta.cards[key] || { name: key }).name }));
          });
          details.appendChild(list);
          hiddenBox.appendChild(details);
        }
        if (!ctx.live && observed.legal_actions && observed.legal_actions.length) {
          hiddenBox.appendChild(legalMovesLine(ctx, observed));
        }
      }
      side.appendChild(hiddenBox);
      var expansion = expansionBlock(observed);
      if (expansion) side.insertBefore(expansion, hiddenBox);
      return side;
    }

    // Expansion state (Premium / Box of Treats: shared goals, the solitaire cat player), drawn
    // from whatever of it the observation holds.
    function expansionBlock(observed) {
      if (!observed.goals && !observed.solitaire && !observed.edition_label) return null;
      var box = section(observed.edition_label || "Expansion");
      if (observed.edition_status && observed.edition_status !== "complete") {
        box.appendChild(el("p", null, el("span", { cls: "badge badge-placeholder", text: "card data: " + observed.edition_status })));
      }
      if (observed.goals) {
        box.appendChild(el("p", { cls: "cl-label", text: "Shared goals" }));
        var goals = el("ul", { cls: "cl-goals" });
        observed.goals.shared.forEach(function (goal) {
          goals.appendChild(el("li", { text: goal.seats.map(seatName).join(" & ") + ": " + goal.goal +
            (goal.vp !== undefined && goal.vp !== null ? " (" + goal.vp + " VP)" : "") }));
        });
        box.appendChild(goals);
      }
      var solo = observed.solitaire;
      if (solo) {
        box.appendChild(el("p", { cls: "cl-label", text: "Cat player (" + seatName(solo.cat_player_seat) + ")" }));
        if (solo.placeholder_cards) {
          box.appendChild(el("p", null, el("span", { cls: "badge badge-placeholder", text: "placeholder turn cards, not the published ones" })));
        }
        box.appendChild(el("p", { text: "Turn card: " + (solo.turn_card ? solo.turn_card.name : "none yet") +
          (solo.cat_choice && solo.cat_choice.length ? " · takes " + solo.cat_choice.join(" or ") : "") }));
        box.appendChild(el("p", { cls: "muted", text: solo.turn_cards_face_down + " turn cards face down" }));
      }
      return box;
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
      return el("div", { "data-hand": "" }, el("p", { cls: "cl-label", text: "Hand (" + hand.length + ")" }), list);
    }

    function playerBlock(ctx, tableau) {
      var seat = tableau.seat;
      var frame = ctx.frame;
      var toMove = frame.to_move === seat;
      var box = el("article", { cls: "cl-player" + (toMove ? " cl-to-move" : "") + (ctx.seat === seat ? " cl-viewer" : ""),
        "aria-label": seatName(seat) + ", " + playerName(seat), "data-seat": String(seat) });
      var header = el("header", { cls: "cl-player-head" },
        el("h4", null, seatName(seat) + " ", el("span", { cls: "muted", text: playerName(seat) })),
        frame.scores ? el("p", { cls: "cl-score" }, el("span", { cls: "cl-score-label", text: ctx.final ? "Final score " : "Score now " }),
          el("strong", { text: String(frame.scores[seat]) })) : null);
      if (toMove) header.appendChild(el("span", { cls: "badge badge-accent", text: "to move" }));
      if (ctx.seat === seat) header.appendChild(el("span", { cls: "badge", text: "this view" }));
      if (tableau.cat_player) header.appendChild(el("span", { cls: "badge", text: "cat player" }));
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
      if (tableau.boxes && tableau.boxes.length) {
        var boxes = el("div", { cls: "cl-row" });
        tableau.boxes.forEach(function (key) { boxes.appendChild(cardTile(key, "cl-small")); });
        box.appendChild(el("p", { cls: "cl-label", text: "Boxes (" + tableau.boxes.length + ")" }));
        box.appendChild(boxes);
      }
      [["cat_brushes", "Cat brushes"], ["laser_pointers", "Laser pointers"], ["shopping_bags", "Shopping bags"]]
        .forEach(function (pair) {
          if (tableau[pair[0]]) box.appendChild(el("p", { text: pair[1] + ": " + tableau[pair[0]] }));
        });
      if (tableau.vp_tokens) box.appendChild(el("p", { text: "VP tokens: " + tableau.vp_tokens }));
      return box;
    }

    function renderCatLady(target, ctx) {
      var board = el("div", { cls: "cl-board" + (ctx.seat === null ? " cl-full" : " cl-seat-view") });
      if (!ctx.frame.scores && !ctx.live) {
        board.appendChild(el("p", { cls: "muted", text: "Running scores are not shown for this edition " +
          "(scoring every position takes too long); the final scores are on the last move and in the score pad." }));
      }
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

    // --- Cantankerous Cats -----------------------------------------------------------------

    var CC_TYPES = { affection: "Affection", mischief: "Mischief", event: "Event", frenzy: "Frenzy", dog: "Dog" };

    function ccCard(number, extraClass) {
      var card = data.meta.cards[String(number)] || { name: "#" + number, type: "unknown" };
      var tile = el("div", { cls: "cl-card cl-small cc-card cc-type-" + card.type + (extraClass ? " " + extraClass : "") });
      tile.appendChild(el("span", { cls: "cl-card-name", text: "#" + number + " " + card.name }));
      var detail = [];
      if (card.hearts) detail.push("♥" + card.hearts);
      if (card.paws) detail.push(card.paws + " paws, cost " + card.cost);
      if (card.effect_text) detail.push(card.effect_text);
      if (card.instant) detail.push("Instant: " + (CC_TYPES[card.instant] || card.instant));
      if (detail.length) tile.appendChild(el("span", { cls: "cl-card-detail", text: detail.join(" · ") }));
      tile.setAttribute("title", (CC_TYPES[card.type] || card.type) + (card.rank !== undefined ? ", rank " + card.rank : ""));
      tile.setAttribute("data-card", String(number));
      return tile;
    }

    function ccCardRow(numbers, empty) {
      var row = el("div", { cls: "cl-row cc-cards" });
      (numbers || []).forEach(function (n) { row.appendChild(ccCard(n)); });
      if (!(numbers || []).length) row.appendChild(el("p", { cls: "muted", text: empty }));
      return row;
    }

    function ccWindow(ctx) {
      var win = ctx.hidden ? ctx.hidden.window : ctx.view.window;
      var box = section("Decision in progress");
      box.classList.add("cc-window");
      if (!win) {
        box.appendChild(el("p", { text: ctx.final ? "The game is over." : "—" }));
        return box;
      }
      var p = function (text, cls) { box.appendChild(el("p", { cls: cls || "", text: text })); };
      if (win.kind === "first-bite") {
        p("First Bite, round " + win.round + ": " + win.bettors.map(seatName).join(", ") + " bet a card face down (" +
          data.meta.turn_indicator.toUpperCase() + " rank wins).");
        p("Placed: " + (win.placed.length ? win.placed.map(seatName).join(", ") : "nobody yet") + ".");
        if (win.bets) {
          p("Face-down bets (hidden from the other seats until revealed):", "cl-label");
          Object.keys(win.bets).forEach(function (seat) {
            box.appendChild(el("div", { cls: "cc-line" }, seatName(Number(seat)) + ": ", ccCard(win.bets[seat])));
          });
        } else if (ctx.seat !== null && ctx.seat >= 0) {
          p(win.my_bet ? "Your bet: #" + win.my_bet + " (the others cannot see it)." : "You have not bet yet.", "cl-secret");
        }
      } else if (win.kind === "pounce") {
        var head = el("p", { cls: "cc-pounce-head" });
        if (win.last_chance) head.appendChild(el("span", { cls: "badge badge-fault", text: "last chance" }));
        head.appendChild(document.createTextNode(" Pounce window after " + seatName(win.after_seat) + "'s card:"));
        box.appendChild(head);
        box.appendChild(ccCard(win.after_card));
        p("May Pounce: " + win.seats.map(seatName).join(", ") + ". Decided: " +
          (win.decided.length ? win.decided.map(seatName).join(", ") : "nobody yet") + ".");
        if (win.choices) {
          p("Choices so far (hidden from the other seats until everyone has decided):", "cl-label");
          var list = el("ul", { cls: "cc-choices" });
          Object.keys(win.choices).forEach(function (seat) {
            list.appendChild(el("li", { text: seatName(Number(seat)) + ": " + win.choices[seat] }));
          });
          box.appendChild(list);
        } else if (ctx.seat !== null && ctx.seat >= 0) {
          p(win.my_choice ? "Your choice: " + win.my_choice + " (the others cannot see it)." :
            "Other seats' choices are hidden until everyone has decided.", "cl-secret");
        }
      } else if (win.kind === "counter") {
        p(seatName(win.seat) + " may Counter " + seatName(win.by_seat) + "'s " + (win.as === "attack" ? "attack" : "Pounce") + ":");
        box.appendChild(ccCard(win.against_card));
      } else if (win.kind === "counter-bank") {
        p(seatName(win.seat) + " Counters by banking Affection: " + win.banked.map(function (n) { return "#" + n; }).join(", ") + ".");
      } else if (win.kind === "instant") {
        p("Instant Actions after a " + (CC_TYPES[win.trigger] || win.trigger) + " card of " + seatName(win.user) +
          ": " + seatName(win.seat) + " decides.");
      } else if (win.kind === "feral-keep") {
        p(seatName(win.seat) + " (Feral) keeps one of " + win.drawn_count + " cards drawn.");
        if (win.drawn) box.appendChild(ccCardRow(win.drawn, ""));
      } else if (win.kind === "play-time") {
        p("Play Time: " + seatName(win.seat) + " has taken " + win.actions_taken + " of 2 actions.");
      } else {
        p("Grooming Time: " + seatName(win.seat) + " discards down to five.");
      }
      return box;
    }

    function ccTable(ctx) {
      var observed = ctx.view;
      var side = el("div", { cls: "cl-side" });
      var deck = data.meta.deck;
      var info = section("Table");
      var deckName = el("dd", null, deck.name);
      if (deck.demo) deckName.appendChild(el("span", { cls: "badge badge-placeholder", text: "demo deck" }));
      var top = observed.litter_box.top;
      info.appendChild(el("dl", { cls: "cl-counts" },
        el("dt", { text: "Cards" }), deckName,
        el("dt", { text: "Game" }), el("dd", { text: data.meta.variant }),
        el("dt", { text: "Turn Indicator" }), el("dd", { text: data.meta.turn_indicator + " rank wins" }),
        el("dt", { text: "Direction" }), el("dd", { text: data.meta.direction }),
        el("dt", { text: "Cat Toy" }), el("dd", { text: observed.toy_holder < 0 ? "nobody yet" : seatName(observed.toy_holder) }),
        el("dt", { text: "Food Bowl" }), el("dd", { text: observed.food_bowl + " cards" }),
        el("dt", { text: "Litter Box" }), el("dd", { text: observed.litter_box.count + " cards" +
          (top ? ", top: #" + top + " " + (data.meta.cards[String(top)] || { name: "" }).name : "") }),
        el("dt", { text: "Token Bank" }), el("dd", { text: String(observed.token_bank) })));
      side.appendChild(info);
      side.appendChild(ccWindow(ctx));
      var table = section("On the table, waiting to resolve");
      if (!observed.table.length) table.appendChild(el("p", { cls: "muted", text: "Nothing." }));
      observed.table.forEach(function (play) {
        var label = seatName(play.seat) + " " + { bank: "banks", score: "scores", incident: "plays", attack: "attacks with" }[play.as] +
          (play.target !== null ? " (target " + seatName(play.target) + ")" : "") +
          (play.origin !== "action" ? " [" + play.origin + "]" : "") + (play.cancelled ? " — cancelled" : "");
        table.appendChild(el("div", { cls: "cc-line" + (play.cancelled ? " cc-cancelled" : "") }, label + ": ", ccCard(play.card)));
      });
      side.appendChild(table);
      var hiddenBox = section(ctx.hidden ? "Hidden from every player" : ctx.seat < 0 ? "Hidden from the spectators" : "Hidden from this seat");
      hiddenBox.classList.add("cl-hidden");
      if (ctx.hidden) {
        hiddenBox.appendChild(el("p", { cls: "cl-label", text: "Next cards in the Food Bowl, in order" }));
        hiddenBox.appendChild(ccCardRow(ctx.hidden.bowl_next, "The Food Bowl is empty."));
      } else {
        hiddenBox.appendChild(el("p", { cls: "cl-secret", text: "The other hands, the Food Bowl's order, and the other seats' bets and Pounce choices until they are revealed." }));
        if (!ctx.live && observed.legal_actions && observed.legal_actions.length) {
          hiddenBox.appendChild(legalMovesLine(ctx, observed));
        }
      }
      side.appendChild(hiddenBox);
      return side;
    }

    function ccPlayer(ctx, cat) {
      var seat = cat.seat;
      var frame = ctx.frame;
      var toMove = frame.to_move === seat;
      var feral = cat.status === "feral";
      var box = el("article", { cls: "cl-player cc-player" + (toMove ? " cl-to-move" : "") + (ctx.seat === seat ? " cl-viewer" : "") +
        (feral ? " cc-feral" : ""), "aria-label": seatName(seat) + ", " + playerName(seat), "data-seat": String(seat) });
      var header = el("header", { cls: "cl-player-head" },
        el("h4", null, seatName(seat) + " ", el("span", { cls: "muted", text: playerName(seat) })),
        el("p", { cls: "cl-score" }, el("span", { cls: "cl-score-label", text: "Mischief " }), el("strong", { text: String(cat.mischief) })));
      header.appendChild(el("span", { cls: "badge" + (feral ? " badge-fault" : ""), text: feral ? "Feral" : "Domestic" }));
      if (ctx.view.toy_holder === seat) header.appendChild(el("span", { cls: "badge badge-win", text: "Cat Toy" }));
      if (toMove) header.appendChild(el("span", { cls: "badge badge-accent", text: "to decide" }));
      if (ctx.seat === seat) header.appendChild(el("span", { cls: "badge", text: "this view" }));
      box.appendChild(header);
      box.appendChild(el("p", { cls: "cl-label", text: (feral ? "Territory" : "House") + ": " + cat.affection + " Affection · " +
        cat.tokens + " Pounce Token" + (cat.tokens === 1 ? "" : "s") }));
      box.appendChild(ccCardRow(cat.house, "No banked Affection."));
      var hand = ctx.hidden ? ctx.hidden.hands[seat] : (ctx.seat === seat ? ctx.view.hand : null);
      if (hand) {
        box.appendChild(el("p", { cls: "cl-label", text: "Hand (" + hand.length + ")" }));
        var handRow = ccCardRow(hand, "Empty.");
        handRow.setAttribute("data-hand", "");
        box.appendChild(handRow);
      } else {
        box.appendChild(el("p", { cls: "cl-secret", text: "Hand: " + cat.hand_size + " cards (hidden)" }));
      }
      return box;
    }

    function renderCantankerous(target, ctx) {
      var board = el("div", { cls: "cl-board cc-board" + (ctx.seat === null ? " cl-full" : " cl-seat-view") });
      var events = ctx.frame.events || [];
      if (events.length) {
        var happened = section("What this move did");
        var list = el("ul", { cls: "cc-events" });
        events.forEach(function (text) { list.appendChild(el("li", { text: text })); });
        happened.appendChild(list);
        board.appendChild(happened);
      }
      board.appendChild(ccTable(ctx));
      var players = el("div", { cls: "cl-players" });
      (ctx.view.cats || []).forEach(function (cat) { players.appendChild(ccPlayer(ctx, cat)); });
      board.appendChild(players);
      target.appendChild(board);
    }

    // Keyed by the renderer a game's spec names (engine/<game>/spec.py), not by the game: a
    // new game registers its drawing code here under the name its spec gives.
    var renderers = { "cat-lady": renderCatLady, "cantankerous-cats": renderCantankerous };
    var render = renderers[data.renderer];
    if (!render) return null;
    return { render: render, el: el, seatName: seatName, playerName: playerName };
  };
})();
