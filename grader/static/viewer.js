/* The one replay viewer of the site. The address names a game (replay.html#<shard>/<key>); its
   record comes from games/<shard>.js (a script that calls replayRecords with [key, packed record]
   pairs; the record is inflated only for the game asked for). Positions are drawn by the
   ruleset's board script (static/board.js: window.replayBoard; start(seed, params, start) gets
   the record's start position where the ruleset stores one), else taken from the record's frames. Every text from the record is set with textContent, never parsed as HTML; pictures are
   data: URIs on an <img>, so an SVG could not run script either.
   Controls: step back/forward, slider, play/pause, arrow keys, Home/End, click a move to jump. */
(function () {
  "use strict";
  var site = JSON.parse(document.getElementById("replay-site").textContent);
  var $ = function (id) { return document.getElementById(id); };
  var img = $("frame"), slider = $("slider"), position = $("position"), ended = $("ended");
  var playButton = $("play"), movesList = $("moves");
  var frames = null, plies = 0, ply = 0, timer = null, moveButtons = [];

  function na(value) { return value === null || value === undefined || value === "" ? "not available" : String(value); }

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }

  /* Seconds as the pages print them: two decimals, whole numbers without. */
  function seconds(x) { return x === Math.round(x) ? String(x) : x.toFixed(2); }

  function svgUri(svg) {
    return "data:image/svg+xml;base64," + btoa(unescape(encodeURIComponent(svg)));
  }

  /* Every position of the game drawn by the ruleset's script: null and a sentence if it cannot. */
  function drawn(record) {
    var board = window.replayBoard;
    if (!board) return [null, null];
    try {
      var pos = board.start(record.seed, site.params || {}, record.start);
      var out = [svgUri(board.svg(pos))];
      (record.moves || []).forEach(function (move) {
        pos = board.play(pos, move);
        out.push(svgUri(board.svg(pos)));
      });
      return [out, null];
    } catch (e) {
      return [null, "Board pictures are not available: " + (e && e.message ? e.message : String(e))];
    }
  }

  function show(k) {
    ply = Math.max(0, Math.min(plies, k));
    if (frames) {
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

  function seatLink(record, seat) {
    var name = (record.seats || [])[seat], key = (record.seat_keys || [])[seat];
    if (!key) return el("span", na(name));
    var a = el("a", na(name));
    a.href = "submissions/" + encodeURIComponent(key) + ".html";
    return a;
  }

  function fact(term, value, code) {
    var div = el("div");
    div.appendChild(el("dt", term));
    var dd = el("dd");
    dd.appendChild(code ? el("code", value, code === true ? null : code) : el("span", value));
    div.appendChild(dd);
    $("facts").appendChild(div);
  }

  function load(record) {
    var title = $("title");
    title.textContent = "Game #" + record.n + ": ";
    title.appendChild(seatLink(record, 0));
    title.appendChild(document.createTextNode(" vs "));
    title.appendChild(seatLink(record, 1));
    document.title = "Game #" + record.n + " — " + document.title;
    var outcome = $("outcome");
    outcome.appendChild(el("strong", na(record.result)));
    outcome.appendChild(document.createTextNode(" — " + na(record.reason) + (record.detail ? ": " + record.detail : "")));
    ended.textContent = "Game over: " + na(record.reason) + (record.detail ? " — " + record.detail : "");

    var texts = record.texts || [], times = record.times || [];
    plies = texts.length;
    texts.forEach(function (text, i) {
      var li = el("li"), b = el("button", text, "seat" + (i % 2));
      b.type = "button";
      b.setAttribute("data-ply", String(i + 1));
      b.addEventListener("click", function () { pause(); show(i + 1); });
      li.appendChild(b);
      var t = Array.isArray(times[i]) ? times[i] : [];
      if (typeof t[0] === "number") {
        var span = el("span", seconds(t[0]) + (typeof t[1] === "number" ? " / " + seconds(t[1]) : "") + " s", "time");
        span.title = "wall-clock / CPU seconds";
        li.appendChild(span);
        $("times-label").hidden = false;
      }
      movesList.appendChild(li);
      moveButtons.push(b);
    });
    $("no-moves").hidden = plies > 0;
    slider.max = String(plies);

    var result = drawn(record);
    frames = result[0] || (Array.isArray(record.frames) && record.frames.length === plies + 1 ? record.frames : null);
    if (frames) {
      img.hidden = false;
    } else {
      $("no-frames").hidden = false;
      $("no-frames").textContent = result[1] || record.missing || "Board pictures are not available for this report.";
    }

    if (record.id) fact("Id", record.id, true);
    fact("Seat 0", na((record.seats || [])[0]));
    fact("Seat 1", na((record.seats || [])[1]));
    fact("Seed", na(record.seed));
    fact("Game of pair", na(record.game_index));
    if (record.reproduce) fact("Reproduce", record.reproduce, "cmd");
    // the move that lost the game (grader/losing_move.py): only in the records of the private site
    (record.losing || []).forEach(function (found) {
      var name = na((record.seats || [])[found.seat]);
      fact("Move that lost it (" + name + ")", found.sentence);
      var button = moveButtons[found.ply];
      if (button) {
        button.classList.add("losing");
        button.title = found.sentence;
      }
    });
    (record.incidents || []).forEach(function (text) { $("incidents").appendChild(el("li", text)); });
    $("incidents-title").hidden = !(record.incidents || []).length;
    show(0);
    $("replay").setAttribute("data-ready", "");
  }

  function notFound() {
    $("replay").hidden = true;
    $("not-found").hidden = false;
    $("replay").setAttribute("data-ready", "");
  }

  var wanted = /^#([0-9a-f]{2})\/([a-z0-9-]+)$/.exec(window.location.hash);
  if (!wanted) { notFound(); return; }
  /* A record as report.shard_entry packed it: base64 of its raw-deflated JSON. */
  function unpack(packed) {
    var bytes = Uint8Array.from(atob(packed), function (c) { return c.charCodeAt(0); });
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new Response(stream).text().then(JSON.parse);
  }

  window.replayRecords = function (entries) {
    var entry = null;
    entries.forEach(function (e) { if (Array.isArray(e) && e[0] === wanted[2]) entry = e; });
    if (!entry) { notFound(); return; }
    unpack(entry[1]).then(function (record) {
      if (record && record.key === wanted[2]) load(record); else notFound();
    }, notFound);
  };
  var script = document.createElement("script");
  script.src = "games/" + wanted[1] + ".js";
  script.onerror = notFound;
  document.head.appendChild(script);

  $("first").addEventListener("click", function () { pause(); show(0); });
  $("back").addEventListener("click", function () { pause(); show(ply - 1); });
  $("forward").addEventListener("click", function () { pause(); show(ply + 1); });
  $("last").addEventListener("click", function () { pause(); show(plies); });
  playButton.addEventListener("click", toggle);
  slider.addEventListener("input", function () { pause(); show(Number(slider.value)); });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target === slider && (e.key === "ArrowLeft" || e.key === "ArrowRight")) return;  // the slider moves itself
    if (e.key === "ArrowLeft") { e.preventDefault(); pause(); show(ply - 1); }
    else if (e.key === "ArrowRight") { e.preventDefault(); pause(); show(ply + 1); }
    else if (e.key === "Home") { e.preventDefault(); pause(); show(0); }
    else if (e.key === "End") { e.preventDefault(); pause(); show(plies); }
    else if (e.key === " " && e.target.tagName !== "BUTTON") { e.preventDefault(); toggle(); }
  });
  window.addEventListener("hashchange", function () { window.location.reload(); });
})();
