(function () {
  "use strict";
  var box = document.getElementById("session-filter");
  var shown = document.getElementById("sessions-shown");
  var rows = document.querySelectorAll("#sessions tbody tr.session");
  if (!box || !shown) { return; }
  box.addEventListener("input", function () {
    var q = box.value.toLowerCase();
    var n = 0;
    for (var i = 0; i < rows.length; i++) {
      var hit = q === "" || rows[i].textContent.toLowerCase().indexOf(q) >= 0;
      rows[i].classList.toggle("hidden", !hit);
      if (hit) { n++; }
    }
    shown.textContent = String(n);
  });
  box.disabled = false;
})();
