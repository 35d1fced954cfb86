// The report's interactions: filters and pages for the per-spec example tables (free text,
// "model errors only", N rows per page), and a CSV download for every table.
(function () {
  "use strict";
  function matches(table) {
    var box = table.parentNode.querySelector("input[type=search]");
    var onlyErrors = table.parentNode.querySelector("input[type=checkbox]");
    var needle = box ? box.value.trim().toLowerCase() : "";
    return Array.prototype.filter.call(table.tBodies[0].rows, function (row) {
      var ok = !needle || row.textContent.toLowerCase().indexOf(needle) !== -1;
      if (ok && onlyErrors && onlyErrors.checked) {
        ok = row.getAttribute("data-error") === "1";
      }
      return ok;
    });
  }
  function apply(table) {
    var size = parseInt(table.getAttribute("data-page-size"), 10) || 50;
    var hits = matches(table);
    var pages = Math.max(1, Math.ceil(hits.length / size));
    var page = Math.min(parseInt(table.getAttribute("data-page") || "0", 10), pages - 1);
    table.setAttribute("data-page", String(page));
    Array.prototype.forEach.call(table.tBodies[0].rows, function (row) { row.hidden = true; });
    hits.slice(page * size, (page + 1) * size).forEach(function (row) { row.hidden = false; });
    var count = table.parentNode.querySelector(".shown");
    if (count) { count.textContent = String(hits.length); }
    var label = table.parentNode.querySelector(".page");
    if (label) { label.textContent = "page " + (page + 1) + " of " + pages; }
  }
  function turn(table, step) {
    var page = parseInt(table.getAttribute("data-page") || "0", 10) + step;
    table.setAttribute("data-page", String(Math.max(0, page)));
    apply(table);
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.examples"), function (table) {
    var controls = table.parentNode.querySelector(".controls");
    Array.prototype.forEach.call(controls.querySelectorAll("input"), function (input) {
      function restart() { table.setAttribute("data-page", "0"); apply(table); }
      input.addEventListener("input", restart);
      input.addEventListener("change", restart);
    });
    controls.querySelector(".prev").addEventListener("click", function () { turn(table, -1); });
    controls.querySelector(".next").addEventListener("click", function () { turn(table, 1); });
    apply(table);
  });

  // CSV of a table as shown in its cells (every row, also those on other pages or filtered).
  function cellText(cell) {
    var copy = cell.cloneNode(true);
    Array.prototype.forEach.call(copy.querySelectorAll("details.drill, br"), function (el) {
      el.replaceWith(el.tagName === "BR" ? " / " : "");
    });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }
  function csv(table) {
    return Array.prototype.map.call(table.rows, function (row) {
      return Array.prototype.map.call(row.cells, function (cell) {
        return '"' + cellText(cell).replace(/"/g, '""') + '"';
      }).join(",");
    }).join("\r\n") + "\r\n";
  }
  window.litTableCsv = csv;
  Array.prototype.forEach.call(document.querySelectorAll("main table"), function (table, k) {
    if (table.closest("details.drill")) { return; }
    var button = document.createElement("button");
    button.type = "button";
    button.className = "csv";
    button.textContent = "CSV";
    button.title = "download this table as CSV";
    button.addEventListener("click", function () {
      var section = table.closest("section");
      var link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([csv(table)], { type: "text/csv" }));
      link.download = (section ? section.id : "table") + "-" + (k + 1) + ".csv";
      document.body.appendChild(link);
      link.click();
      link.remove();
    });
    table.parentNode.insertBefore(button, table);
  });
})();
