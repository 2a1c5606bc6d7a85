// The graders' gallery's script (grade class writes it beside the pages; grader/src/report/
// gallery.rs says what the pages hold). Served by `grade gallery`, whose address carries a
// token after `#`, it fills in the scores saved so far, keeps each category's sum, saves a
// student's scores to the server with the token (the answer says "saved", and whether their
// feedback was written), and has the server write the feedback files from the class page's
// button. Opened as a file, it leaves the page read only.
"use strict";

(function () {
  const token = location.hash.slice(1);
  const served = location.protocol.startsWith("http") && /^[0-9a-f]{32}$/.test(token);
  const root = document.body.dataset.root;
  const mode = document.getElementById("mode");
  if (!served) {
    return;
  }
  mode.textContent = "Served by grade gallery: type the scores and Save; they go to the gradebook.";
  mode.classList.add("live");
  // Links between the pages keep the token.
  for (const link of document.querySelectorAll("a[data-page]")) {
    link.hash = token;
  }
  const form = document.getElementById("marks");

  // The student an element is about: their name, percent-encoded in its data-student.
  function student(element) {
    return decodeURIComponent(element.dataset.student);
  }

  // A category's sum, once every item has a score.
  function sum(section) {
    const boxes = [...section.querySelectorAll("input[data-item]")];
    const values = boxes.map((box) => box.value.trim());
    const out = section.querySelector("output.sum");
    out.textContent = values.some((v) => v === "")
      ? "?"
      : String(Math.round(values.reduce((a, v) => a + Number(v), 0) * 100) / 100);
  }

  // The scores saved in the report directory's hand-scores.json, into the page.
  function fill(saved) {
    const students = (saved && saved.students) || {};
    if (form) {
      const marks = students[student(form)] || {};
      for (const section of form.querySelectorAll("section[data-category]")) {
        const given = marks[section.dataset.category];
        if (given) {
          for (const box of section.querySelectorAll("input[data-item]")) {
            const score = given.items[Number(box.dataset.item)];
            box.value = score === null || score === undefined ? "" : String(score);
          }
          section.querySelector("textarea[data-comment]").value = given.comment || "";
        }
        sum(section);
      }
    }
    for (const row of document.querySelectorAll("tr[data-student]")) {
      const marks = students[student(row)] || {};
      const scored = Object.values(marks)
        .map((given) => given.items.filter((score) => score !== null).length)
        .reduce((a, n) => a + n, 0);
      row.querySelector(".scored").textContent = scored + " of " + row.dataset.items;
    }
  }

  fetch(root + "hand-scores.json", { cache: "no-store" })
    .then((response) => (response.ok ? response.json() : null))
    .catch(() => null)
    .then(fill);

  // A request that writes, with the token; `shown` gets the server's answer.
  function post(path, body, shown, done) {
    shown.textContent = "writing...";
    shown.className = "pending";
    fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Grade-Token": token },
      body: JSON.stringify(body),
    })
      .then((response) => response.text().then((text) => ({ ok: response.ok, text: text })))
      .then((answer) => {
        shown.textContent = answer.ok ? answer.text : "not done: " + answer.text;
        shown.className = answer.ok ? "saved" : "error";
        if (answer.ok && done) {
          done();
        }
      })
      .catch((error) => {
        shown.textContent = "not done: " + error;
        shown.className = "error";
      });
  }

  // The class page's button: the feedback files of everyone whose hand grading is done.
  const feedback = document.getElementById("feedback");
  if (feedback) {
    feedback.disabled = false;
    feedback.addEventListener("click", () => {
      post("/feedback", {}, document.getElementById("feedback-status"), null);
    });
  }

  if (!form) {
    return;
  }
  const status = document.getElementById("status");
  for (const field of form.querySelectorAll("input, textarea, button")) {
    field.disabled = false;
  }
  form.addEventListener("input", (event) => {
    const section = event.target.closest("section[data-category]");
    if (section) {
      sum(section);
    }
    status.textContent = "not saved yet";
    status.className = "pending";
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const categories = {};
    for (const section of form.querySelectorAll("section[data-category]")) {
      const items = [...section.querySelectorAll("input[data-item]")].map((box) =>
        box.value.trim() === "" ? null : Number(box.value)
      );
      const comment = section.querySelector("textarea[data-comment]").value;
      categories[section.dataset.category] = { items: items, comment: comment };
    }
    post("/scores", { student: student(form), categories: categories }, status, null);
  });
})();
