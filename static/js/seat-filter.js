/* Forms that seat bots (a challenge, a new tournament): offer only the bots of the chosen
   game. Every seat choice carries data-game; a choice of another game is hidden, disabled and
   cleared when the game changes. The form works without it (the server refuses a bot of
   another game with a message beside its seat). */
(function () {
  "use strict";

  Array.prototype.forEach.call(document.querySelectorAll("form[data-seat-filter]"), function (form) {
    var game = form.querySelector("[name=game]");
    if (!game) return;

    function update() {
      Array.prototype.forEach.call(form.querySelectorAll("[data-game]"), function (choice) {
        var other = choice.getAttribute("data-game") !== game.value;
        var box = choice.tagName === "INPUT" ? choice.closest("label") || choice : choice;
        box.hidden = other;
        choice.disabled = other;
        if (!other) return;
        if (choice.tagName === "OPTION" && choice.selected) choice.parentNode.closest("select").value = "";
        if (choice.tagName === "INPUT") choice.checked = false;
      });
    }

    game.addEventListener("change", update);
    update();
  });
})();
