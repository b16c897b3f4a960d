/* An upload's page reloads itself when its verdict arrives (a file, so the CSP needs no inline script). */
(function () {
  var box = document.getElementById("state");
  if (!box || box.dataset.status === "done" || box.dataset.status === "grader_failed") return;
  function poll() {
    fetch(box.dataset.url, {credentials: "same-origin"}).then(function (r) { return r.json(); }).then(function (s) {
      if (s.status !== box.dataset.status || s.status === "done" || s.status === "grader_failed" ||
          (s.stage || "") !== (box.dataset.stage || "")) { location.reload(); }
      else { setTimeout(poll, 1000); }
    }).catch(function () { setTimeout(poll, 3000); });
  }
  setTimeout(poll, 1000);
})();

/* After a dynamic registration, the LMS that opened the page is asked to close it (LTI Dynamic Registration §3.6.1). */
(function () {
  var done = document.getElementById("lti-registered");
  if (!done) return;
  (window.opener || window.parent).postMessage({subject: "org.imsglobal.lti.close"}, done.dataset.origin || "*");
})();
