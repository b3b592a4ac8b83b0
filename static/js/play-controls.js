/* The live table's controls: resign (asked once), rematch after the game, take back your
   last move (unrated games only), and an optional beep when it is your move. Hand written, no
   dependencies, no audio file: the beep is made with WebAudio.

   play.js sends every state it draws as a "play:state" event on #play; the buttons follow it.
   The server decides everything (arena/live/views.py): a refused action says why beside the
   status, and the table's next state shows its effect. */
(function () {
  "use strict";

  var root = document.getElementById("play");
  var bar = document.getElementById("play-controls");
  if (!root || !bar) return;
  var csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  var errorNode = document.getElementById("play-error");
  var takebackButton = document.getElementById("play-takeback");
  var resignButton = document.getElementById("play-resign");
  var rematchButton = document.getElementById("play-rematch");
  var soundBox = document.getElementById("play-sound");
  var SOUND_KEY = "catleague.play.sound";
  var state = null;
  var busy = false;
  var lastAsk = null;
  var audio = null;
  bar.hidden = false;

  function over() { return state && (state.status === "finished" || state.status === "failed"); }

  function draw() {
    if (!state) return;
    var open = !over();
    resignButton.hidden = !open || state.resigned;
    takebackButton.hidden = !state.can_take_back;
    rematchButton.hidden = open;
    [resignButton, takebackButton, rematchButton].forEach(function (b) { b.disabled = busy; });
  }

  function post(url, what) {
    busy = true;
    draw();
    errorNode.hidden = true;
    return window.CatleaguePost(url, csrf).then(function (body) {
      busy = false;
      draw();
      return body;
    }, function (error) {
      busy = false;
      draw();
      errorNode.textContent = what + " was refused: " + error.message;
      errorNode.hidden = false;
      throw error;
    });
  }

  resignButton.addEventListener("click", function () {
    var question = state && state.rated === false ?
      "Resign this game? It counts as a loss (unrated: no rating changes)." :
      "Resign this game? It is rated as a loss.";
    if (!window.confirm(question)) return;
    post(root.getAttribute("data-resign-url"), "Resigning").catch(function () {});
  });

  takebackButton.addEventListener("click", function () {
    post(root.getAttribute("data-takeback-url"), "The takeback").catch(function () {});
  });

  rematchButton.addEventListener("click", function () {
    post(root.getAttribute("data-rematch-url"), "The rematch").then(function (body) {
      window.location.assign(body.url);
    }).catch(function () {});
  });

  // The beep: off unless the person turned it on (remembered in this browser). The audio
  // context is made on that click, since browsers start sound only after a gesture.
  function soundOn() {
    try { return window.localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; }
  }

  function ensureAudio() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) audio = new Context();
    if (audio && audio.state === "suspended") audio.resume();
    return audio;
  }

  function beep() {
    var context = ensureAudio();
    soundBox.setAttribute("data-beeps", String(Number(soundBox.getAttribute("data-beeps") || 0) + 1));
    if (!context) return;
    var now = context.currentTime;
    var tone = context.createOscillator();
    var volume = context.createGain();
    tone.type = "sine";
    tone.frequency.setValueAtTime(880, now);
    volume.gain.setValueAtTime(0.0001, now);
    volume.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, now + 0.25);
    tone.connect(volume);
    volume.connect(context.destination);
    tone.start(now);
    tone.stop(now + 0.3);
  }

  soundBox.checked = soundOn();
  soundBox.addEventListener("change", function () {
    try { window.localStorage.setItem(SOUND_KEY, soundBox.checked ? "on" : "off"); } catch (e) { /* private mode */ }
    if (soundBox.checked) ensureAudio();
  });

  root.addEventListener("play:state", function (event) {
    state = event.detail;
    var ask = !over() && state.asked_step !== null ? state.asked_step + "." + state.takebacks : null;
    if (ask !== null && ask !== lastAsk && soundBox.checked) beep();
    lastAsk = ask;
    draw();
  });
})();
