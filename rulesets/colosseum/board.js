/* Colosseum Survival! positions drawn in the browser for the league's replay viewer
   (grader/static/viewer.js): window.replayBoard = {start(seed, params, startPosition),
   play(position, move), svg(position)}. The start board (its size, barriers and the players'
   cells) is drawn by Python's RNG from the seed, so the record carries it (startPosition:
   engine.py's State.to_json of new_state(seed); the ruleset sets board_start). A move is the stored
   canonical JSON [[row, col], dir], already judged legal by the engine: play only moves the pawn
   and walls the side (refusing what cannot be drawn: the game over, a cell off the board or the
   opponent's, a side already walled); the end is the course's check_endgame (the players' regions
   apart). The picture is render.py's render_svg without marks, character for character
   (tests/report/test_boards.py compares them on real games). */
(function () {
  "use strict";
  var STEPS = [[-1, 0], [0, 1], [1, 0], [0, -1]], OPPOSITE = [2, 3, 0, 1];
  var NAMES = ["A", "B"], COLOURS = ["#1f77b4", "#8c564b"], CELL = 40, MARGIN = 24;

  var kit = window.boardKit, escape = kit.escape, float = kit.float, isInt = kit.isInt;   // grader/static/board_kit.js

  function wall(s, r, c, d) { return (s.walls[r * s.size + c] >> d & 1) === 1; }

  function barrier(s, r, c, d) {
    s.walls[r * s.size + c] |= 1 << d;
    var nr = r + STEPS[d][0], nc = c + STEPS[d][1];
    if (nr >= 0 && nr < s.size && nc >= 0 && nc < s.size) s.walls[nr * s.size + nc] |= 1 << OPPOSITE[d];
  }

  /* The cells each player can walk to, and the game's end when they differ (check_endgame). */
  function region(s, from) {
    var seen = {}, queue = [from], count = 0;
    seen[from[0] * s.size + from[1]] = true;
    while (queue.length) {
      var cell = queue.pop();
      count += 1;
      for (var d = 0; d < 4; d++) {
        if (wall(s, cell[0], cell[1], d)) continue;
        var next = [cell[0] + STEPS[d][0], cell[1] + STEPS[d][1]], i = next[0] * s.size + next[1];
        if (!seen[i]) { seen[i] = true; queue.push(next); }
      }
    }
    return { seen: seen, count: count };
  }

  function judge(s) {
    var a = region(s, s.positions[0]), p1 = s.positions[1];
    if (a.seen[p1[0] * s.size + p1[1]]) return null;
    var s0 = a.count, s1 = region(s, p1).count;
    if (s0 > s1) return "A's region has " + s0 + " cells and B's " + s1 + ": A wins.";
    if (s1 > s0) return "B's region has " + s1 + " cells and A's " + s0 + ": B wins.";
    return "Both regions have " + s0 + " cells: a tie.";
  }

  function start(seed, params, position) {
    if (!position || !isInt(position.board_size) || !Array.isArray(position.positions)) {
      throw new Error("this game's record has no start board.");
    }
    var m = position.board_size, s = { size: m, walls: [], positions: [], turn: position.turn || 0,
                                       ply: position.ply || 0, end: null };
    for (var i = 0; i < m * m; i++) s.walls.push(0);
    for (i = 0; i < m; i++) {
      barrier(s, 0, i, 0); barrier(s, m - 1, i, 2); barrier(s, i, 0, 3); barrier(s, i, m - 1, 1);
    }
    (position.barriers || []).forEach(function (b) { barrier(s, b[0], b[1], b[2]); });
    s.positions = position.positions.map(function (p) { return [p[0], p[1]]; });
    s.end = judge(s);
    return s;
  }

  function play(s, move) {
    if (s.end) throw new Error("the game is already over at ply " + s.ply + ".");
    var cell = Array.isArray(move) && Array.isArray(move[0]) ? move[0] : [], d = Array.isArray(move) ? move[1] : null;
    var r = cell[0], c = cell[1], other = s.positions[1 - s.turn];
    if (!isInt(r) || !isInt(c) || !isInt(d) || r < 0 || c < 0 || r >= s.size || c >= s.size || d < 0 || d > 3 ||
        (r === other[0] && c === other[1]) || wall(s, r, c, d)) {
      throw new Error(JSON.stringify(move) + " is not a legal move at ply " + s.ply + ".");
    }
    s.positions[s.turn] = [r, c];
    barrier(s, r, c, d);
    s.turn = 1 - s.turn;
    s.ply += 1;
    s.end = judge(s);
    return s;
  }

  function status(s) {
    var a = s.positions[0], b = s.positions[1];
    var head = s.size + "x" + s.size + ", K=" + Math.floor((s.size + 1) / 2) + ", A at (" + a[0] + "," + a[1] +
      "), B at (" + b[0] + "," + b[1] + ")";
    return head + (s.end ? "; game over: " + s.end : "; " + NAMES[s.turn] + " to move");
  }

  function svg(s) {
    var m = s.size, size = MARGIN + m * CELL + 8, height = size + 20;
    var x = function (c) { return MARGIN + c * CELL; }, y = function (r) { return MARGIN + r * CELL; };
    var side = function (r, c, d) {
      return [[x(c), y(r), x(c + 1), y(r)], [x(c + 1), y(r), x(c + 1), y(r + 1)],
              [x(c), y(r + 1), x(c + 1), y(r + 1)], [x(c), y(r), x(c), y(r + 1)]][d];
    };
    var out = ['<svg xmlns="http://www.w3.org/2000/svg" width="' + size + '" height="' + height +
               '" viewBox="0 0 ' + size + " " + height + '" font-family="sans-serif" font-size="12">',
               "<title>" + escape(status(s)) + "</title>",
               '<rect x="0" y="0" width="' + size + '" height="' + height + '" fill="white"/>'];
    var i, r, c, d;
    for (i = 0; i < m; i++) {
      out.push('<text x="' + float(x(i + 0.5)) + '" y="' + (MARGIN - 8) + '" text-anchor="middle">' + i + "</text>");
      out.push('<text x="' + (MARGIN - 8) + '" y="' + float(y(i + 0.5) + 4) + '" text-anchor="middle">' + i + "</text>");
    }
    for (i = 0; i <= m; i++) {
      out.push('<line x1="' + x(0) + '" y1="' + y(i) + '" x2="' + x(m) + '" y2="' + y(i) + '" stroke="#ddd"/>');
      out.push('<line x1="' + x(i) + '" y1="' + y(0) + '" x2="' + x(i) + '" y2="' + y(m) + '" stroke="#ddd"/>');
    }
    for (r = 0; r < m; r++) {
      for (c = 0; c < m; c++) {
        for (d = 0; d < 4; d++) {
          if (!wall(s, r, c, d)) continue;
          var l = side(r, c, d);
          out.push('<line x1="' + l[0] + '" y1="' + l[1] + '" x2="' + l[2] + '" y2="' + l[3] +
                   '" stroke="black" stroke-width="4" stroke-linecap="round"/>');
        }
      }
    }
    s.positions.forEach(function (p, seat) {
      out.push('<circle cx="' + float(x(p[1] + 0.5)) + '" cy="' + float(y(p[0] + 0.5)) + '" r="' + float(CELL * 0.32) +
               '" fill="' + COLOURS[seat] + '"/>');
      out.push('<text x="' + float(x(p[1] + 0.5)) + '" y="' + float(y(p[0] + 0.5) + 5) +
               '" text-anchor="middle" font-size="15" fill="white">' + NAMES[seat] + "</text>");
    });
    out.push('<text x="4" y="' + (size + 12) + '">' + escape(status(s)) + "</text>");
    out.push("</svg>");
    return out.join("\n");
  }

  window.replayBoard = { start: start, play: play, svg: svg };
})();
