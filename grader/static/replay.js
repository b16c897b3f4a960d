/* Replay of one game: step back/forward, slider, play/pause, arrow keys, click a move to jump.
   Board pictures come from the page's JSON block as data: URIs set on an <img>, so nothing is
   ever parsed as HTML; move texts are already in the page (escaped by the server). */
(function () {
  "use strict";
  var dataNode = document.getElementById("replay-data");
  if (!dataNode) return;
  var data = JSON.parse(dataNode.textContent);
  var frames = data.frames;            // null when pictures are not available
  var plies = data.plies;
  var img = document.getElementById("frame");
  var slider = document.getElementById("slider");
  var position = document.getElementById("position");
  var ended = document.getElementById("ended");
  var playButton = document.getElementById("play");
  var moveButtons = Array.prototype.slice.call(document.querySelectorAll("#moves button[data-ply]"));
  var ply = 0;
  var timer = null;

  function show(k) {
    ply = Math.max(0, Math.min(plies, k));
    if (frames && img) {
      img.src = frames[ply];
      img.setAttribute("data-ply", String(ply));
    }
    slider.value = String(ply);
    position.textContent = "ply " + ply + " / " + plies;
    moveButtons.forEach(function (b) {
      var current = Number(b.getAttribute("data-ply")) === ply;
      b.classList.toggle("current", current);
      if (current) {
        b.setAttribute("aria-current", "step");
        if (b.scrollIntoView) b.scrollIntoView({ block: "nearest" });
      } else {
        b.removeAttribute("aria-current");
      }
    });
    ended.hidden = ply !== plies;
    if (ply === plies) pause();
  }

  function pause() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    playButton.textContent = "play";
    playButton.setAttribute("aria-pressed", "false");
  }

  function play() {
    if (ply === plies) show(0);
    timer = setInterval(function () { show(ply + 1); }, 600);
    playButton.textContent = "pause";
    playButton.setAttribute("aria-pressed", "true");
  }

  function toggle() { if (timer === null) play(); else pause(); }

  document.getElementById("first").addEventListener("click", function () { pause(); show(0); });
  document.getElementById("back").addEventListener("click", function () { pause(); show(ply - 1); });
  document.getElementById("forward").addEventListener("click", function () { pause(); show(ply + 1); });
  document.getElementById("last").addEventListener("click", function () { pause(); show(plies); });
  playButton.addEventListener("click", toggle);
  slider.addEventListener("input", function () { pause(); show(Number(slider.value)); });
  moveButtons.forEach(function (b) {
    b.addEventListener("click", function () { pause(); show(Number(b.getAttribute("data-ply"))); });
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target === slider && (e.key === "ArrowLeft" || e.key === "ArrowRight")) return;  // the slider moves itself
    if (e.key === "ArrowLeft") { e.preventDefault(); pause(); show(ply - 1); }
    else if (e.key === "ArrowRight") { e.preventDefault(); pause(); show(ply + 1); }
    else if (e.key === "Home") { e.preventDefault(); pause(); show(0); }
    else if (e.key === "End") { e.preventDefault(); pause(); show(plies); }
    else if (e.key === " " && e.target.tagName !== "BUTTON") { e.preventDefault(); toggle(); }
  });
  show(0);
})();
