const errors = [];
window.addEventListener("error", (event) => errors.push(String(event.message)));
const boxes = [...document.querySelectorAll("input[name=architecture]")];
function show() {
  const chosen = boxes.filter((box) => box.checked).map((box) => box.value);
  for (const columns of document.querySelectorAll(".columns")) {
    columns.style.setProperty("--shown", Math.max(chosen.length, 1));
    for (const column of columns.children) column.hidden = !chosen.includes(column.dataset.architecture);
  }
  const query = new URLSearchParams(location.search);
  query.set("show", chosen.join(","));
  history.replaceState(null, "", "?" + query.toString() + location.hash);
}
// What the browser check reads: every concern shows one column per chosen architecture, each
// with code or a note, and no code is wider than its column.
function check() {
  const problems = [...errors];
  const chosen = boxes.filter((box) => box.checked).map((box) => box.value);
  if (chosen.length < 2) problems.push("fewer than two architectures chosen");
  for (const columns of document.querySelectorAll(".columns")) {
    const shown = [...columns.children].filter((column) => !column.hidden);
    const concern = columns.dataset.concern;
    if (shown.length !== chosen.length) problems.push(`${concern}: ${shown.length} columns shown`);
    for (const column of shown) {
      if (column.getBoundingClientRect().width < 200) problems.push(`${concern}: a narrow column`);
      if (!column.querySelector("pre, .none")) problems.push(`${concern}: an empty column`);
      for (const pre of column.querySelectorAll("pre")) {
        if (pre.scrollWidth > pre.clientWidth + 1) {
          problems.push(`${concern} · ${column.dataset.architecture}: code wider than its column`);
        }
      }
    }
  }
  return problems;
}
const requested = new URLSearchParams(location.search).get("show");
if (requested) {
  const names = requested.split(",");
  for (const box of boxes) box.checked = names.includes(box.value);
}
for (const box of boxes) box.addEventListener("change", show);
show();
if (new URLSearchParams(location.search).has("check")) {
  const problems = check();
  const result = document.getElementById("check");
  result.textContent = problems.length ? "problems: " + problems.join("; ") : "check: ok";
  result.dataset.ok = problems.length ? "false" : "true";
}
