// Filters for the per-spec example tables: free text and "model errors only".
(function () {
  "use strict";
  function apply(table) {
    var box = table.parentNode.querySelector("input[type=search]");
    var onlyErrors = table.parentNode.querySelector("input[type=checkbox]");
    var needle = box ? box.value.trim().toLowerCase() : "";
    var shown = 0;
    var rows = table.tBodies[0].rows;
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i];
      var ok = !needle || row.textContent.toLowerCase().indexOf(needle) !== -1;
      if (ok && onlyErrors && onlyErrors.checked) {
        ok = row.getAttribute("data-error") === "1";
      }
      row.hidden = !ok;
      if (ok) { shown++; }
    }
    var count = table.parentNode.querySelector(".shown");
    if (count) { count.textContent = String(shown); }
  }
  var tables = document.querySelectorAll("table.examples");
  Array.prototype.forEach.call(tables, function (table) {
    var inputs = table.parentNode.querySelectorAll(".controls input");
    Array.prototype.forEach.call(inputs, function (input) {
      input.addEventListener("input", function () { apply(table); });
      input.addEventListener("change", function () { apply(table); });
    });
    apply(table);
  });
})();
