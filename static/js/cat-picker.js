/* The result form's cat pickers: each seat's "Find a cat" box narrows its lists of cats and
   strays to the names typed, and otherwise shows only the cats already chosen, so a 4-player
   table fits a phone. Enter in the box ticks the only match. Without this script the form
   still works: the search boxes stay hidden and each list is a short box that scrolls. */
(function () {
  "use strict";

  function fold(text) {
    // Case and accents do not matter: "bronte" finds Brontë.
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function setUp(picker) {
    var search = picker.querySelector(".picker-search");
    var input = search.querySelector("input");
    var status = search.querySelector(".picker-status");
    var items = Array.prototype.slice.call(picker.querySelectorAll(".choice-list-picker li"));
    var lists = Array.prototype.slice.call(picker.querySelectorAll(".choice-list-picker"));
    // The cat's name (the box's value), not its label: "c" should not find every cat that eats chicken.
    var names = items.map(function (li) { return fold(li.querySelector("input").value); });
    search.hidden = false;
    picker.classList.add("picker-ready");

    function matches() {
      var words = fold(input.value.trim()).split(/\s+/).filter(Boolean);
      return items.filter(function (li, index) {
        return words.length > 0 && words.every(function (w) { return names[index].indexOf(w) !== -1; });
      });
    }

    function update() {
      var found = matches();
      var typed = input.value.trim() !== "";
      items.forEach(function (li) {
        var box = li.querySelector("input");
        li.hidden = !(box.checked || found.indexOf(li) !== -1);
      });
      lists.forEach(function (list) {
        var none = list.parentNode.querySelector(".picker-none");
        var shown = list.querySelector("li:not([hidden])");
        if (none) none.hidden = Boolean(shown);
      });
      var chosen = items.filter(function (li) { return li.querySelector("input").checked; }).length;
      var text = chosen + " chosen";
      if (typed) text = found.length + " match" + (found.length === 1 ? "" : "es") + " · " + text;
      status.textContent = text;
    }

    input.addEventListener("input", update);
    input.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      event.preventDefault(); // Enter here picks a cat, it does not send the form
      var found = matches().filter(function (li) { return !li.querySelector("input").checked; });
      if (found.length === 1) {
        found[0].querySelector("input").checked = true;
        input.value = "";
        update();
      }
    });
    picker.addEventListener("change", update);
    update();
  }

  Array.prototype.forEach.call(document.querySelectorAll("[data-cat-picker]"), setUp);
})();
