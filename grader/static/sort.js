/* Sort a table.sortable by clicking a column header (click again to reverse).
   Cells carry data-sort; th carries data-type="number"|"text". Empty values always sort last. */
(function () {
  "use strict";
  function sortBy(table, column, type, descending) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var keyed = rows.map(function (row, i) {
      var cell = row.cells[column];
      var raw = cell ? (cell.getAttribute("data-sort") || "") : "";
      var key = raw === "" ? null : (type === "number" ? parseFloat(raw) : raw.toLowerCase());
      if (type === "number" && key !== null && isNaN(key)) key = null;
      return { row: row, key: key, i: i };
    });
    keyed.sort(function (a, b) {
      if (a.key === null || b.key === null) {
        if (a.key === b.key) return a.i - b.i;
        return a.key === null ? 1 : -1;
      }
      var c = a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
      return (descending ? -c : c) || a.i - b.i;
    });
    var frag = document.createDocumentFragment();
    keyed.forEach(function (k) { frag.appendChild(k.row); });
    body.appendChild(frag);
  }

  function enable(table) {
    var headers = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(headers, function (th, column) {
      th.tabIndex = 0;
      th.classList.add("sort-key");
      function activate() {
        var descending = th.getAttribute("aria-sort") === "ascending";
        Array.prototype.forEach.call(headers, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", descending ? "descending" : "ascending");
        sortBy(table, column, th.getAttribute("data-type") || "text", descending);
      }
      th.addEventListener("click", activate);
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); activate(); }
      });
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), enable);
})();
