/* The "Play the bots" form: shows one opponent list per other seat, offers only the bots of
   the chosen game, and narrows the lists by a name or rating typed in the filter box. The form
   works without it (the server checks everything). */
(function () {
  "use strict";

  var form = document.getElementById("play-form");
  var supportedNode = document.getElementById("play-supported");
  if (!form || !supportedNode) return;
  var supported = JSON.parse(supportedNode.textContent);
  var game = form.querySelector("[name=game]");
  var players = form.querySelector("[name=players]");
  var seat = form.querySelector("[name=seat]");
  var filter = document.getElementById("opponent-filter");
  var selects = [1, 2, 3, 4, 5].map(function (n) { return form.querySelector("[name=opponent_" + n + "]"); });
  var labels = {};
  Array.prototype.forEach.call(game.options, function (option) { labels[option.value] = option.textContent; });
  filter.closest(".play-filter").hidden = false;

  function update() {
    var sizes = supported[game.value] || [2];
    var count = Math.max(sizes[0], Math.min(Number(players.value) || 2, sizes[sizes.length - 1]));
    players.min = String(sizes[0]);
    players.max = String(sizes[sizes.length - 1]);
    Array.prototype.forEach.call(seat.options, function (option) {
      option.hidden = option.value !== "random" && Number(option.value) > count;
    });
    var words = filter.value.trim().toLowerCase();
    selects.forEach(function (select, index) {
      select.closest(".field").hidden = index >= count - 1;
      Array.prototype.forEach.call(select.querySelectorAll("optgroup"), function (group) {
        var right = group.label === labels[game.value];
        group.hidden = !right;
        group.disabled = !right;
        Array.prototype.forEach.call(group.querySelectorAll("option"), function (option) {
          option.hidden = Boolean(words) && option.textContent.toLowerCase().indexOf(words) < 0 &&
            !option.selected;
        });
      });
      var chosen = select.options[select.selectedIndex];
      if (chosen && chosen.parentNode.disabled) select.value = "";
    });
  }

  [game, players, filter].forEach(function (input) { input.addEventListener("input", update); });
  game.addEventListener("change", update);
  update();
})();
