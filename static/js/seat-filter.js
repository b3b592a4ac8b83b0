/* Forms that seat bots (a challenge, a new tournament): offer only the bots of the chosen
   game. Every bot choice carries data-game; a choice of another game is hidden, disabled and
   cleared when the game changes. A page the server rendered for one game only (the challenge
   page, ?game=) holds no bots of another: choosing that game opens its page instead. The
   form works without this script (the server refuses a bot of another game beside its field). */
(function () {
  "use strict";

  Array.prototype.forEach.call(document.querySelectorAll("form[data-seat-filter]"), function (form) {
    var game = form.querySelector("[name=game]");
    if (!game) return;

    function update() {
      var offered = 0;
      Array.prototype.forEach.call(form.querySelectorAll("[data-game]"), function (choice) {
        var other = choice.getAttribute("data-game") !== game.value;
        var box = choice.tagName === "INPUT" ? choice.closest("label") || choice : choice;
        box.hidden = other;
        choice.disabled = other;
        if (!other) { offered += 1; return; }
        if (choice.tagName === "OPTION" && choice.selected) choice.closest("select").value = "";
        if (choice.tagName === "INPUT") choice.checked = false;
      });
      return offered;
    }

    game.addEventListener("change", function () {
      if (update() === 0 && form.hasAttribute("data-game-pages")) {
        var query = new URLSearchParams(window.location.search);
        query.set("game", game.value);
        query.delete("seat1");
        window.location.search = query.toString();
      }
    });
    update();
  });
})();
