/* What every ruleset's board script (rulesets/<name>/board.js, copied to static/board.js) needs to
   draw a position as the ruleset's render.py does, in one place: window.boardKit.
   escape: Python's html.escape(text, quote=True); float: a number as Python's str() prints a
   float (44.0, 12.8); isInt: an integer JSON number. Loaded by replay.html just before board.js. */
(function () {
  "use strict";
  window.boardKit = {
    escape: function (text) {
      return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
        .replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
    },
    float: function (x) { return Number.isInteger(x) ? x.toFixed(1) : String(x); },
    isInt: function (x) { return typeof x === "number" && Number.isInteger(x); }
  };
})();
