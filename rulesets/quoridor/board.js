/* Quoridor (CTU B3B33ALP) positions drawn in the browser for the league's replay viewer
   (grader/static/viewer.js): window.replayBoard = {start(seed, params, startPosition),
   play(position, move), svg(position)}. Start columns and initial obstacles may be drawn by
   Python's RNG from the seed, so the record carries the start (startPosition: {"pos": [[x, y],
   [x, y]], "walls": [["H"|"V", x, y], ...]}, see board_start in __init__.py); sizes, supply and
   the ply cap are the params. A move is the stored canonical JSON ({"type": 1, "pos": [x, y]},
   {"type": 2, "edges": [[fx, fy, tx, ty], [fx, fy, tx, ty]]}, {"type": null}), already judged
   legal by the engine: play only moves the pawn or adds the wall (refusing what cannot be drawn:
   the game over, a step that is not to a free neighbouring cell, a wall off the board or on
   another). The end is engine.py's _settle: a goal row reached, two passes or neither player able
   to act (steps, or walls that leave both a way: paths ignore pawns), the ply cap. The picture is
   render.py's render_svg without marks, character for character (tests/report/test_boards.py). */
(function () {
  "use strict";
  var DIRECTIONS = [[1, 0], [-1, 0], [0, 1], [0, -1]], COLOURS = ["#1f77b4", "#2ca02c"], C = 40, M = 24;

  var kit = window.boardKit, escape = kit.escape, float = kit.float, isInt = kit.isInt;   // grader/static/board_kit.js

  /* The undirected edge between two cells (smaller cell first), as a key. */
  function edge(ax, ay, bx, by) {
    return ax < bx || (ax === bx && ay <= by) ? ax + "," + ay + "," + bx + "," + by : bx + "," + by + "," + ax + "," + ay;
  }

  function wallEdges(w) {
    var x = w[1], y = w[2];
    return w[0] === "H" ? [edge(x, y, x, y + 1), edge(x + 1, y, x + 1, y + 1)]
      : [edge(x, y, x + 1, y), edge(x, y + 1, x + 1, y + 1)];
  }

  /* geometry.py's wall_from_edges: two course edges (any order or direction) → the wall, or null. */
  function wallFromEdges(pair) {
    if (!Array.isArray(pair) || pair.length !== 2) return null;
    var es = [];
    for (var k = 0; k < 2; k++) {
      var e = pair[k];
      if (!Array.isArray(e) || e.length !== 4 || !e.every(isInt)) return null;
      var a = [e[0], e[1]], b = [e[2], e[3]];
      es.push(a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]) ? a.concat(b) : b.concat(a));
    }
    es.sort(function (p, q) { for (var i = 0; i < 4; i++) if (p[i] !== q[i]) return p[i] - q[i]; return 0; });
    var ax = es[0][0], ay = es[0][1], bx = es[0][2], by = es[0][3];
    var cx = es[1][0], cy = es[1][1], dx = es[1][2], dy = es[1][3];
    if (ax === bx && by === ay + 1 && cx === dx && dy === cy + 1 && cy === ay && cx === ax + 1) return ["H", ax, ay];
    if (ay === by && bx === ax + 1 && cy === dy && dx === cx + 1 && cx === ax && cy === ay + 1) return ["V", ax, ay];
    return null;
  }

  function inside(s, w) { return (w[0] === "H" || w[0] === "V") && w[1] >= 0 && w[1] <= s.sx - 2 && w[2] >= 0 && w[2] <= s.sy - 2; }

  function goalRow(s, seat) { return seat === 0 ? s.sy - 1 : 0; }

  /* geometry.py's shortest_path, as a yes/no: the goal row reached through the walls alone. */
  function reaches(s, seat, extra) {
    var start = s.pos[seat], goal = goalRow(s, seat), seen = {}, queue = [start];
    if (start[1] === goal) return true;
    seen[start[0] + "," + start[1]] = true;
    while (queue.length) {
      var cell = queue.shift();
      for (var k = 0; k < 4; k++) {
        var nx = cell[0] + DIRECTIONS[k][0], ny = cell[1] + DIRECTIONS[k][1];
        if (nx < 0 || ny < 0 || nx >= s.sx || ny >= s.sy || seen[nx + "," + ny]) continue;
        var e = edge(cell[0], cell[1], nx, ny);
        if (s.blocked[e] || extra.indexOf(e) >= 0) continue;
        if (ny === goal) return true;
        seen[nx + "," + ny] = true;
        queue.push([nx, ny]);
      }
    }
    return false;
  }

  function canStep(s, seat, tx, ty) {
    var p = s.pos[seat], q = s.pos[1 - seat];
    return Math.abs(tx - p[0]) + Math.abs(ty - p[1]) === 1 && tx >= 0 && ty >= 0 && tx < s.sx && ty < s.sy &&
      !(tx === q[0] && ty === q[1]) && !s.blocked[edge(p[0], p[1], tx, ty)];
  }

  function canAct(s, seat) {
    var p = s.pos[seat];
    for (var k = 0; k < 4; k++) if (canStep(s, seat, p[0] + DIRECTIONS[k][0], p[1] + DIRECTIONS[k][1])) return true;
    if (s.left[seat] <= 0 || s.walls.length >= 2 * s.maxObstacles + s.nInitial) return false;
    var kinds = ["H", "V"];
    for (var o = 0; o < 2; o++) {
      for (var y = 0; y < s.sy - 1; y++) {
        for (var x = 0; x < s.sx - 1; x++) {
          var es = wallEdges([kinds[o], x, y]);
          if (!s.blocked[es[0]] && !s.blocked[es[1]] && reaches(s, 0, es) && reaches(s, 1, es)) return true;
        }
      }
    }
    return false;
  }

  function settle(s) {
    for (var seat = 0; seat < 2; seat++) {
      var row = goalRow(s, seat);
      if (s.pos[seat][1] === row) return "Player " + (seat + 1) + " reached row " + row + ".";
    }
    var mover = s.ply % 2;
    if (s.passes >= 2 || (!canAct(s, mover) && !canAct(s, 1 - mover))) {
      return "Neither player can step or place an obstacle: both lose.";
    }
    if (s.ply >= s.plyCap) return "The game reached the cap of " + s.ply + " plies: a draw.";
    return null;
  }

  function addWall(s, w) {
    var es = wallEdges(w);
    if (!inside(s, w) || s.blocked[es[0]] || s.blocked[es[1]]) return false;
    s.walls.push(w);
    s.blocked[es[0]] = s.blocked[es[1]] = true;
    return true;
  }

  function start(seed, params, position) {
    params = params || {};
    if (!position || !Array.isArray(position.pos) || position.pos.length !== 2) {
      throw new Error("this game's record has no start position.");
    }
    var sx = isInt(params.sizex) ? params.sizex : 9, sy = isInt(params.sizey) ? params.sizey : 9;
    var m = isInt(params.max_obstacles) ? params.max_obstacles : 4;
    var s = { sx: sx, sy: sy, maxObstacles: m, plyCap: isInt(params.ply_cap) ? params.ply_cap : 4 * sx * sy,
              pos: position.pos.map(function (p) { return [p[0], p[1]]; }), walls: [], blocked: {},
              left: [m, m], ply: 0, passes: 0, end: null, nInitial: 0 };
    (position.walls || []).forEach(function (w) {
      if (!addWall(s, [w[0], w[1], w[2]])) throw new Error("the record's start has a misplaced obstacle.");
    });
    s.nInitial = s.walls.length;
    s.end = settle(s);
    return s;
  }

  function play(s, move) {
    if (s.end) throw new Error("the game is already over at ply " + s.ply + ".");
    var seat = s.ply % 2, kind = move && typeof move === "object" ? move.type : undefined, ok = false;
    if (kind === 1 && Array.isArray(move.pos) && isInt(move.pos[0]) && isInt(move.pos[1])) {
      ok = canStep(s, seat, move.pos[0], move.pos[1]);
      if (ok) { s.pos[seat] = [move.pos[0], move.pos[1]]; s.passes = 0; }
    } else if (kind === 2) {
      var w = wallFromEdges(move.edges);
      ok = w !== null && s.left[seat] > 0 && addWall(s, w);
      if (ok) { s.left[seat] -= 1; s.passes = 0; }
    } else if (kind === null) {
      ok = true;
      s.passes += 1;
    }
    if (!ok) throw new Error(JSON.stringify(move) + " is not a legal move at ply " + s.ply + ".");
    s.ply += 1;
    s.end = settle(s);
    return s;
  }

  function status(s) {
    var walls = "obstacles left: player 1 " + s.left[0] + ", player 2 " + s.left[1];
    if (s.end) return s.sx + "x" + s.sy + ", after ply " + s.ply + ": " + s.end + " (" + walls + ")";
    return s.sx + "x" + s.sy + ", ply " + (s.ply + 1) + ", player " + (s.ply % 2 + 1) + " to move (" + walls + ")";
  }

  function svg(s) {
    var width = 2 * M + s.sx * C, height = 2 * M + s.sy * C + 18, caption = status(s);
    var wide = Math.max(width, Math.min(1200, Math.floor(M + 7 * caption.length)));
    var out = ['<svg xmlns="http://www.w3.org/2000/svg" width="' + wide + '" height="' + height +
               '" viewBox="0 0 ' + wide + " " + height + '" font-family="sans-serif" font-size="12">',
               '<rect x="0" y="0" width="' + wide + '" height="' + height + '" fill="#ffffff"/>'];
    var x, y;
    for (x = 0; x < s.sx; x++) out.push('<text x="' + float(M + x * C + C / 2) + '" y="' + (M - 6) + '" text-anchor="middle">' + x + "</text>");
    for (y = 0; y < s.sy; y++) out.push('<text x="' + (M - 6) + '" y="' + float(M + y * C + C / 2 + 4) + '" text-anchor="end">' + y + "</text>");
    for (y = 0; y < s.sy; y++) {
      for (x = 0; x < s.sx; x++) {
        out.push('<rect x="' + (M + x * C) + '" y="' + (M + y * C) + '" width="' + C + '" height="' + C +
                 '" fill="#f7f3e8" stroke="#c8c0a8" stroke-width="1"/>');
      }
    }
    s.walls.forEach(function (w) {
      var l = w[0] === "H" ? [M + w[1] * C + 2, M + (w[2] + 1) * C, M + (w[1] + 2) * C - 2, M + (w[2] + 1) * C]
        : [M + (w[1] + 1) * C, M + w[2] * C + 2, M + (w[1] + 1) * C, M + (w[2] + 2) * C - 2];
      out.push('<line x1="' + l[0] + '" y1="' + l[1] + '" x2="' + l[2] + '" y2="' + l[3] +
               '" stroke="#3b2f2f" stroke-width="6" stroke-linecap="round"/>');
    });
    s.pos.forEach(function (p, seat) {
      var cx = float(M + p[0] * C + C / 2);
      out.push('<circle cx="' + cx + '" cy="' + float(M + p[1] * C + C / 2) + '" r="' + float(C * 0.32) +
               '" fill="' + COLOURS[seat] + '"/>');
      out.push('<text x="' + cx + '" y="' + float(M + p[1] * C + C / 2 + 4) +
               '" text-anchor="middle" fill="#ffffff" font-weight="bold">' + (seat + 1) + "</text>");
    });
    out.push('<text x="' + M + '" y="' + (2 * M + s.sy * C) + '">' + escape(caption) + "</text>");
    out.push("</svg>");
    return out.join("\n");
  }

  window.replayBoard = { start: start, play: play, svg: svg };
})();
