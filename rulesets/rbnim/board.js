/* Red-Blue Nim positions drawn in the browser for the league's replay viewer
   (grader/static/viewer.js): window.replayBoard = {start(seed, params), play(position, move),
   svg(position)}. The start is the game's piles (params red, blue, version); a move is the stored
   canonical JSON ["red"|"blue", 1|2], already judged legal by the engine: play only takes the
   marbles (and refuses a move that cannot be drawn: the game already over, no such pile, more
   than the pile holds). The picture is engine.py's render_svg without marks, character for
   character (tests/report/test_boards.py compares them on real games). */
(function () {
  "use strict";
  var DEFAULTS = { red: 8, blue: 10, version: "standard" };

  var kit = window.boardKit, escape = kit.escape;   // grader/static/board_kit.js

  function param(params, name) {
    return params && params[name] !== undefined && params[name] !== null ? params[name] : DEFAULTS[name];
  }

  function start(seed, params) {
    var version = String(param(params, "version")).trim().toLowerCase().replace("è", "e");
    return { red: Number(param(params, "red")), blue: Number(param(params, "blue")), turn: 0, ply: 0,
             version: version === "misere" ? "misere" : "standard" };
  }

  function over(s) { return s.red === 0 || s.blue === 0; }

  function play(s, move) {
    if (over(s)) throw new Error("the game is already over at ply " + s.ply + ".");
    var pile = Array.isArray(move) ? move[0] : null, n = Array.isArray(move) ? move[1] : null;
    if ((pile !== "red" && pile !== "blue") || (n !== 1 && n !== 2) || n > s[pile]) {
      throw new Error(JSON.stringify(move) + " is not a legal move at ply " + s.ply + ".");
    }
    s[pile] -= n;
    s.turn = 1 - s.turn;
    s.ply += 1;
    return s;
  }

  function status(s) {
    if (!over(s)) return "Player " + s.turn + " to move (" + s.version + " version).";
    var facing = s.turn, k = 2 * s.red + 3 * s.blue, misere = s.version === "misere";
    var winner = misere ? facing : 1 - facing;
    return "Player " + facing + " faced an empty pile with " + s.red + " red and " + s.blue + " blue left and " +
      (misere ? "wins" : "loses") + " " + k + " point" + (k !== 1 ? "s" : "") + " (" + s.version +
      " version): player " + winner + " wins.";
  }

  function svg(s) {
    var perRow = 20, step = 22;
    var rows = [["red", s.red, "#d62728"], ["blue", s.blue, "#1f77b4"]];
    var lines = rows.map(function (row) { return Math.max(1, Math.ceil(row[1] / perRow)); });
    var height = 40 + (lines[0] + lines[1]) * step + 30 * 2 + 20, width = 90 + perRow * step;
    var out = ['<svg xmlns="http://www.w3.org/2000/svg" width="' + width + '" height="' + height +
               '" viewBox="0 0 ' + width + " " + height + '" font-family="sans-serif" font-size="14">',
               '<rect x="0" y="0" width="' + width + '" height="' + height + '" fill="#fafafa"/>'];
    var y = 30;
    rows.forEach(function (row, i) {
      out.push('<text x="10" y="' + (y + 5) + '" font-weight="bold">' + row[0] + " " + row[1] + "</text>");
      for (var k = 0; k < row[1]; k++) {
        out.push('<circle cx="' + (90 + (k % perRow) * step) + '" cy="' + (y + Math.floor(k / perRow) * step) +
                 '" r="9" fill="' + row[2] + '"/>');
      }
      y += lines[i] * step + 30;
    });
    out.push('<text x="10" y="' + y + '" font-size="12">' + escape(status(s)) + "</text>");
    out.push("</svg>");
    return out.join("\n");
  }

  window.replayBoard = { start: start, play: play, svg: svg };
})();
