/* Double Card positions drawn in the browser for the league's replay viewer
   (grader/static/viewer.js): window.replayBoard = {start(seed, params), play(position, move),
   svg(position)}. The start is the empty 8x12 board (params max_moves, strict_recycle,
   seat0_role). A move is the stored canonical text ("0 5 A 2", "F 2 F 3 3 A 2"), already judged
   legal by the engine: play only places the card, or lifts and places it again (refusing what
   cannot be drawn: the game over, text that is not a move, a cell taken or unsupported, a
   recycled card that is not there). The end is engine.py's: a line of four (colours or dots,
   the mover's kind first), the move limit, no recycling move left. The picture is render.py's
   render_svg without marks, character for character (tests/report/test_boards.py). */
(function () {
  "use strict";
  var WIDTH = 8, HEIGHT = 12, CELLS = WIDTH * HEIGHT, CARDS = 24, COLUMNS = "ABCDEFGH";
  var RED = 0, WHITE = 1, FILLED = 0, OPEN = 1;
  var SEGMENTS = { 1: [[RED, FILLED], [WHITE, OPEN]], 2: [[WHITE, OPEN], [RED, FILLED]],
                   3: [[WHITE, OPEN], [RED, FILLED]], 4: [[RED, FILLED], [WHITE, OPEN]],
                   5: [[RED, OPEN], [WHITE, FILLED]], 6: [[WHITE, FILLED], [RED, OPEN]],
                   7: [[WHITE, FILLED], [RED, OPEN]], 8: [[RED, OPEN], [WHITE, FILLED]] };
  var DIRECTIONS = [[1, 0], [0, 1], [1, 1], [1, -1]];
  var ROLES = ["colours", "dots"], ROLE_TITLES = { colours: "Colours", dots: "Dots" };
  var SEAT_NAMES = ["first player", "second player"], COLOUR_NAMES = ["red", "white"];
  var DOT_NAMES = ["filled (•)", "open (◦)"], COLOUR_FILL = ["#d9382c", "#ffffff"];

  var kit = window.boardKit, escape = kit.escape, float = kit.float;   // grader/static/board_kit.js

  function horizontal(code) { return code % 2 === 1; }
  function cellName(cell) { return COLUMNS[cell % WIDTH] + (Math.floor(cell / WIDTH) + 1); }
  function cellTokens(cell) { return COLUMNS[cell % WIDTH] + " " + (Math.floor(cell / WIDTH) + 1); }

  function secondCell(code, cell) {
    if (horizontal(code)) return cell % WIDTH + 1 < WIDTH ? cell + 1 : null;
    return Math.floor(cell / WIDTH) + 1 < HEIGHT ? cell + WIDTH : null;
  }

  function role(s, seat) { return seat === 0 ? s.firstRole : ROLES[1 - ROLES.indexOf(s.firstRole)]; }

  function start(seed, params) {
    params = params || {};
    var first = { colors: "colours", color: "colours", colour: "colours", dot: "dots" }[params.seat0_role] ||
      params.seat0_role;
    var s = { owner: [], colour: [], dot: [], heights: [0, 0, 0, 0, 0, 0, 0, 0], cards: [], ply: 0, last: null,
              history: [], end: null, maxMoves: typeof params.max_moves === "number" ? params.max_moves : 60,
              strict: params.strict_recycle === true, firstRole: first === "dots" ? "dots" : "colours" };
    for (var i = 0; i < CELLS; i++) { s.owner.push(-1); s.colour.push(null); s.dot.push(null); }
    return s;
  }

  /* board.py's parse_text for the canonical text: [source cells or null, code, cell], or null. */
  function parse(text) {
    if (typeof text !== "string") return null;
    var t = text.toUpperCase().match(/[A-Z]+|\d+|[^\sA-Z\d,;]+/g) || [];
    var cell = function (col, row) {
      var c = COLUMNS.indexOf(col), r = Number(row);
      return col.length === 1 && c >= 0 && /^\d+$/.test(row) && r >= 1 && r <= HEIGHT ? (r - 1) * WIDTH + c : null;
    };
    var code = function (token) { return /^[1-8]$/.test(token) ? Number(token) : null; };
    if (t.length === 4 && t[0] === "0" && code(t[1]) !== null && cell(t[2], t[3]) !== null) {
      return [null, code(t[1]), cell(t[2], t[3])];
    }
    if (t.length === 7) {
      var a = cell(t[0], t[1]), b = cell(t[2], t[3]), to = cell(t[5], t[6]);
      if (a === null || b === null || code(t[4]) === null || to === null) return null;
      return [[Math.min(a, b), Math.max(a, b)], code(t[4]), to];
    }
    return null;
  }

  function moveText(source, code, cell) {
    var target = code + " " + cellTokens(cell);
    return source ? cellTokens(source[0]) + " " + cellTokens(source[1]) + " " + target : "0 " + target;
  }

  function resting(s, card) {
    var code = s.cards[card][0], cell = s.cards[card][1];
    var tops = horizontal(code) ? [cell, cell + 1] : [cell + WIDTH];
    for (var i = 0; i < tops.length; i++) {
      if (tops[i] + WIDTH < CELLS && s.owner[tops[i] + WIDTH] >= 0) return true;
    }
    return false;
  }

  function heightsWithout(s, card) {
    var code = s.cards[card][0], cell = s.cards[card][1], h = s.heights.slice();
    var col = cell % WIDTH, row = Math.floor(cell / WIDTH);
    h[col] = row;
    if (horizontal(code)) h[col + 1] = row;
    return h;
  }

  /* engine.py's _placements: every placement [code, cell] on a board with these column heights. */
  function placements(heights) {
    var out = [];
    for (var col = 0; col < WIDTH; col++) {
      var row = heights[col];
      if (row >= HEIGHT) continue;
      var flat = col + 1 < WIDTH && heights[col + 1] === row, tall = row + 1 < HEIGHT;
      for (var code = 1; code <= 8; code++) if (code % 2 ? flat : tall) out.push([code, row * WIDTH + col]);
    }
    return out;
  }

  /* Whether any recycling move is left (engine.py's _recycling_moves, as a yes/no). */
  function canRecycle(s) {
    for (var card = 0; card < s.cards.length; card++) {
      if (card === s.last || resting(s, card)) continue;
      var old = s.cards[card], from = [old[1], secondCell(old[0], old[1])].sort(function (a, b) { return a - b; });
      var options = placements(heightsWithout(s, card));
      for (var i = 0; i < options.length; i++) {
        var code = options[i][0], cell = options[i][1];
        if (code === old[0] && cell === old[1]) continue;
        var to = [cell, secondCell(code, cell)].sort(function (a, b) { return a - b; });
        if (s.strict && to[0] === from[0] && to[1] === from[1]) continue;
        return true;
      }
    }
    return false;
  }

  /* board.py's longest_line: a run of four or more equal values through one of `cells`. */
  function longestLine(values, cells) {
    for (var i = 0; i < cells.length; i++) {
      var cell = cells[i], v = values[cell];
      if (v === null) continue;
      for (var d = 0; d < 4; d++) {
        var dc = DIRECTIONS[d][0], dr = DIRECTIONS[d][1], run = [cell];
        for (var sign = 1; sign >= -1; sign -= 2) {
          var c = cell % WIDTH + sign * dc, r = Math.floor(cell / WIDTH) + sign * dr;
          while (c >= 0 && c < WIDTH && r >= 0 && r < HEIGHT && values[r * WIDTH + c] === v) {
            run.push(r * WIDTH + c);
            c += sign * dc; r += sign * dr;
          }
        }
        if (run.length >= 4) return run.sort(function (a, b) { return a - b; });
      }
    }
    return null;
  }

  function span(run) {
    var ends = run.slice().sort(function (a, b) { return a % WIDTH - b % WIDTH || Math.floor(a / WIDTH) - Math.floor(b / WIDTH); });
    return cellName(ends[0]) + "–" + cellName(ends[ends.length - 1]);
  }

  function judge(s, mover, placed) {
    var colourLine = longestLine(s.colour, placed), dotLine = longestLine(s.dot, placed);
    if (colourLine || dotLine) {
      var mine = role(s, mover) === "colours" ? colourLine : dotLine, winner = mine ? mover : 1 - mover;
      var line = mine || colourLine || dotLine, r = role(s, winner);
      var kind = (r === "colours" ? s.colour : s.dot)[line[0]];
      var what = r === "colours" ? COLOUR_NAMES[kind] : DOT_NAMES[kind] + " dots";
      var detail = ROLE_TITLES[r] + " (" + SEAT_NAMES[winner] + ") win: " + line.length + " " + what +
        " in a line at " + span(line) + " after move " + s.ply + ", " + s.history[s.history.length - 1];
      if (colourLine && dotLine) return detail + ", which made lines of both kinds; the mover wins.";
      return detail + (winner !== mover ? ", made by their opponent." : ".");
    }
    if (s.ply >= s.maxMoves) return "Nobody made a line in " + s.ply + " moves: a draw.";
    if (s.cards.length === CARDS && !canRecycle(s)) {
      return "The " + SEAT_NAMES[s.ply % 2] + " has no legal recycling move: a draw.";
    }
    return null;
  }

  function play(s, move) {
    if (s.end) throw new Error("the game is already over at ply " + s.ply + ".");
    var parsed = parse(move), bad = new Error(JSON.stringify(move) + " is not a legal move at ply " + s.ply + ".");
    if (!parsed) throw bad;
    var source = parsed[0], code = parsed[1], cell = parsed[2], second = secondCell(code, cell), card, i;
    if ((source === null) !== (s.cards.length < CARDS) || second === null) throw bad;
    var heights = s.heights;
    if (source) {
      card = s.owner[source[0]];
      if (card < 0 || s.owner[source[1]] !== card || card === s.last || resting(s, card)) throw bad;
      heights = heightsWithout(s, card);
    } else {
      card = s.cards.length;
    }
    var needs = horizontal(code) ? [cell, second] : [cell];
    if (heights[cell % WIDTH] > Math.floor(cell / WIDTH) || heights[second % WIDTH] > Math.floor(second / WIDTH)) throw bad;
    for (i = 0; i < needs.length; i++) if (heights[needs[i] % WIDTH] < Math.floor(needs[i] / WIDTH)) throw bad;
    if (source) {
      var old = s.cards[card], cells = [old[1], secondCell(old[0], old[1])];
      for (i = 0; i < 2; i++) {
        s.owner[cells[i]] = -1; s.colour[cells[i]] = s.dot[cells[i]] = null;
        s.heights[cells[i] % WIDTH] -= 1;
      }
    }
    [cell, second].forEach(function (where, k) {
      s.owner[where] = card; s.colour[where] = SEGMENTS[code][k][0]; s.dot[where] = SEGMENTS[code][k][1];
      s.heights[where % WIDTH] += 1;
    });
    s.cards[card] = [code, cell];
    s.last = card;
    s.history.push(moveText(source, code, cell));
    var mover = s.ply % 2;
    s.ply += 1;
    s.end = judge(s, mover, [cell, second]);
    return s;
  }

  function status(s) {
    var roles = ROLE_TITLES[role(s, 0)] + " (first) vs " + ROLE_TITLES[role(s, 1)] + " (second)";
    if (s.end) return roles + "; after move " + s.ply + ": " + s.end;
    var phase = s.cards.length === CARDS ? "recycling" : s.cards.length + " of 24 cards placed", seat = s.ply % 2;
    return roles + "; move " + (s.ply + 1) + " of " + s.maxMoves + " (" + phase + "), " + SEAT_NAMES[seat] +
      " (" + role(s, seat) + ") to move";
  }

  function svg(s) {
    var size = 34, left = 26, top = 8, width = left + WIDTH * size + 8, height = top + HEIGHT * size + 24 + 16;
    var out = ['<svg xmlns="http://www.w3.org/2000/svg" width="' + width + '" height="' + height +
               '" viewBox="0 0 ' + width + " " + height + '" font-family="sans-serif" font-size="12">',
               "<title>" + escape(status(s)) + "</title>"];
    var xy = function (cell) { return [left + (cell % WIDTH) * size, top + (HEIGHT - 1 - Math.floor(cell / WIDTH)) * size]; };
    for (var cell = 0; cell < CELLS; cell++) {
      var p = xy(cell);
      if (s.owner[cell] < 0) {
        out.push('<rect x="' + p[0] + '" y="' + p[1] + '" width="' + size + '" height="' + size + '" fill="#eeeeee" stroke="#cccccc"/>');
        continue;
      }
      out.push('<rect x="' + p[0] + '" y="' + p[1] + '" width="' + size + '" height="' + size + '" fill="' +
               COLOUR_FILL[s.colour[cell]] + '" stroke="#999999"/>');
      out.push('<circle cx="' + float(p[0] + size / 2) + '" cy="' + float(p[1] + size / 2) + '" r="' + float(size / 5) +
               '" fill="' + (s.dot[cell] === FILLED ? "#000000" : "none") + '" stroke="#000000" stroke-width="2"/>');
    }
    s.cards.forEach(function (card) {
      var q = xy(card[1]), flat = horizontal(card[0]);
      out.push('<rect x="' + q[0] + '" y="' + (flat ? q[1] : q[1] - size) + '" width="' + (flat ? 2 * size : size) +
               '" height="' + (flat ? size : 2 * size) + '" fill="none" stroke="#333333" stroke-width="2"/>');
    });
    for (var row = 0; row < HEIGHT; row++) {
      out.push('<text x="' + (left - 6) + '" y="' + (top + (HEIGHT - 1 - row) * size + Math.floor(size / 2) + 4) +
               '" text-anchor="end">' + (row + 1) + "</text>");
    }
    var base = top + HEIGHT * size + 16;
    for (var col = 0; col < WIDTH; col++) {
      out.push('<text x="' + float(left + col * size + size / 2) + '" y="' + base + '" text-anchor="middle">' + COLUMNS[col] + "</text>");
    }
    out.push("</svg>");
    return out.join("");
  }

  window.replayBoard = { start: start, play: play, svg: svg };
})();
