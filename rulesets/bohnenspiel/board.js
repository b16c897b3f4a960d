/* Das Bohnenspiel positions drawn in the browser for the league's replay viewer
   (grader/static/viewer.js): window.replayBoard = {start(seed, params), play(position, move),
   svg(position)}. The rules are engine.py's and moves.py's (sow, capture 2/4/6 backwards, two
   skips, no skip right after the opponent's, the turn cap); the picture is render.py's
   render_svg without marks, character for character (tests/report/test_browser.py compares them
   on real games). Moves are the stored canonical JSON: ["pit", i] or ["skip"]. */
(function () {
  "use strict";
  var PITS = 6, START = 6, SKIPS = 2;

  var kit = window.boardKit, escape = kit.escape;   // grader/static/board_kit.js

  function start(seed, params) {
    var row = function () { var r = []; for (var i = 0; i < PITS; i++) r.push(START); return r; };
    return { pits: [row(), row()], scores: [0, 0], credit: [SKIPS, SKIPS], barred: [0, 0], turn: 0,
             turnNumber: 0, ply: 0, end: null, maxTurns: (params && params.max_turns) || 200 };
  }

  function hasMoves(s, p) {
    for (var i = 0; i < PITS; i++) if (s.pits[p][i] > 0) return true;
    return s.credit[p] > 0 && !s.barred[p];
  }

  function total(pits) { return pits[0].concat(pits[1]).reduce(function (a, b) { return a + b; }, 0); }

  function play(s, move) {
    if (s.end) throw new Error("the game is already over at ply " + s.ply + ".");
    var p = s.turn;
    if (move[0] === "skip") {
      if (s.credit[p] <= 0 || s.barred[p]) throw new Error("player " + p + " may not skip at ply " + s.ply + ".");
      s.credit[p] -= 1;
      s.barred[1 - p] = 1;
    } else {
      var start = move[1], beans = s.pits[p][start];
      if (move[0] !== "pit" || !(start >= 0 && start < PITS) || beans === 0) {
        throw new Error(JSON.stringify(move) + " is not a legal move at ply " + s.ply + ".");
      }
      s.pits[p][start] = 0;
      var side = p, i = start;
      for (var k = 0; k < beans; k++) {
        i += 1;
        if (i === PITS) { i = 0; side = 1 - side; }
        s.pits[side][i] += 1;
      }
      while ([2, 4, 6].indexOf(s.pits[side][i]) >= 0) {
        s.scores[p] += s.pits[side][i];
        s.pits[side][i] = 0;
        i -= 1;
        if (i < 0) { i = PITS - 1; side = 1 - side; }
      }
      s.barred[p] = 0;
    }
    if (p === 1) s.turnNumber += 1;
    s.turn = 1 - p;
    s.ply += 1;
    if (!hasMoves(s, s.turn)) {
      var left = total(s.pits);
      s.scores[1 - s.turn] += left;
      s.pits = [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]];
      s.end = { reason: "no_moves", left: left, to: 1 - s.turn };
    } else if (s.turnNumber > s.maxTurns) {
      s.end = { reason: "turn_cap", left: total(s.pits), to: null };
    }
    return s;
  }

  function status(s) {
    if (!s.end) return "Player " + s.turn + " to move (turn " + s.turnNumber + ", ply " + s.ply + ").";
    var a = s.scores[0], b = s.scores[1];
    var result = a !== b ? "player " + (a > b ? 0 : 1) + " wins " + Math.max(a, b) + "–" + Math.min(a, b)
      : "a draw at " + a + "–" + b;
    if (s.end.reason === "no_moves") {
      return "Player " + (1 - s.end.to) + " had no legal move, so the " + s.end.left +
        " bean(s) left on the board went to player " + s.end.to + ": " + result + ".";
    }
    return "The game reached the " + s.maxTurns + "-turn cap with " + s.end.left + " bean(s) left unscored: " + result + ".";
  }

  function svg(s) {
    var step = 70, r = 28, x0 = 120, rows = [[1, 60], [0, 140]];
    var width = x0 + PITS * step + 150, height = 220, mover = s.end ? null : s.turn;
    var out = ['<svg xmlns="http://www.w3.org/2000/svg" width="' + width + '" height="' + height +
               '" viewBox="0 0 ' + width + " " + height + '" font-family="sans-serif" font-size="14">',
               '<rect x="0" y="0" width="' + width + '" height="' + height + '" fill="#fbf6ec"/>',
               '<rect x="' + (x0 - 40) + '" y="20" width="' + (PITS * step + 10) + '" height="160" rx="20" fill="#c8a070"/>'];
    rows.forEach(function (pair) {
      var side = pair[0], y = pair[1];
      for (var i = 0; i < PITS; i++) {
        var x = x0 + (side === 1 ? PITS - 1 - i : i) * step;
        out.push('<circle cx="' + x + '" cy="' + y + '" r="' + r + '" fill="#e8d2a8" stroke="#7a5230" stroke-width="2"/>');
        out.push('<text x="' + x + '" y="' + (y + 5) + '" text-anchor="middle" font-weight="bold">' + s.pits[side][i] + "</text>");
        var labelY = side === 1 ? y - r - 4 : y + r + 14;
        out.push('<text x="' + x + '" y="' + labelY + '" text-anchor="middle" font-size="10" fill="#5a4020">' + i + "</text>");
      }
      out.push('<text x="10" y="' + (y + 5) + '" font-weight="bold">Player ' + side + (side === mover ? " ◀" : "") + "</text>");
      var sx = x0 + PITS * step - 10;
      out.push('<text x="' + sx + '" y="' + (y - 4) + '">score ' + s.scores[side] + "</text>");
      out.push('<text x="' + sx + '" y="' + (y + 14) + '" font-size="12">skips ' + s.credit[side] +
               (s.barred[side] ? ", barred" : "") + "</text>");
    });
    out.push('<text x="10" y="205" font-size="12">' + escape(status(s)) + "</text>");
    out.push("</svg>");
    return out.join("\n");
  }

  window.replayBoard = { start: start, play: play, svg: svg };
})();
