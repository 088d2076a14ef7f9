// The stealthflow page: calls the service's own endpoints (/analyze, /restore, /sessions) with the
// page's credential in a header. The credential comes from the one-time token of the sign-in link's
// fragment (#token=...) and is kept in sessionStorage: this origin (port included) and this tab only.
// No framework, no network beyond this server.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { session: "", vault: "", request: "", pieces: [], accepted: [] };
const CREDENTIAL = "stealthflow-credential";

// The credential for this tab: exchanged from the link's one-time token, else the one kept before.
async function signIn() {
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  if (token) {
    history.replaceState(null, "", location.pathname);  // the token leaves the address bar and the history
    const response = await fetch("/ui/signin", {
      method: "POST",
      credentials: "omit",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token }),
    });
    if (response.ok) sessionStorage.setItem(CREDENTIAL, (await response.json()).credential);
  }
  return sessionStorage.getItem(CREDENTIAL);
}

function showSignedOut() {
  document.querySelector("main").remove();
  document.querySelector(".session-bar").remove();
  $("signed-out").hidden = false;
}

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    credentials: "omit",
    headers: { "Content-Type": "application/json", "X-Stealthflow-Page": sessionStorage.getItem(CREDENTIAL) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const message = data.error && data.error.message;
    throw new Error(message || `the server answered ${response.status}`);
  }
  return data;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// -- session -------------------------------------------------------------------------------
function newSessionId() {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return "page-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function useSession(id) {
  state.session = id;
  state.request = "";
  sessionStorage.setItem("stealthflow-session", id);
  $("session-id").textContent = id;
  loadPlaceholders();
}

async function loadPlaceholders() {
  const body = $("placeholders").tBodies[0];
  try {
    const data = await api("GET", `/sessions/${encodeURIComponent(state.session)}`);
    body.replaceChildren();
    for (const row of data.placeholders) {
      const tr = element("tr");
      tr.append(element("td", "placeholder", row.placeholder), element("td", "", row.value));
      body.append(tr);
    }
    if (!data.placeholders.length) {
      const tr = element("tr", "empty");
      const td = element("td", "", "None yet.");
      td.colSpan = 2;
      tr.append(td);
      body.append(tr);
    }
  } catch (error) {
    $("forget-status").textContent = error.message;
  }
}

let forgetArmed = null;
async function forgetSession() {
  const button = $("forget");
  if (!forgetArmed) {  // two steps: forgetting cannot be undone
    button.textContent = "Click again to forget";
    forgetArmed = setTimeout(() => { forgetArmed = null; button.textContent = "Forget this session"; }, 5000);
    return;
  }
  clearTimeout(forgetArmed);
  forgetArmed = null;
  button.textContent = "Forget this session";
  try {
    const data = await api("DELETE", `/sessions/${encodeURIComponent(state.session)}`);
    $("forget-status").textContent = `Forgot ${data.placeholders} placeholder(s); a new session has started.`;
    clearResults();
    useSession(newSessionId());
  } catch (error) {
    $("forget-status").textContent = error.message;
  }
}

// -- check a post ---------------------------------------------------------------------------
function renderFindings(text, spans, cues) {
  const marks = [
    ...spans.map((s) => ({ start: s.start, end: s.end, kind: "pii", tag: s.placeholder, title: `${s.type} → ${s.placeholder}` })),
    ...cues.map((c) => ({ start: c.start, end: c.end, kind: "cue", tag: c.name, title: `points to your ${c.name}` })),
  ].sort((a, b) => a.start - b.start);
  const box = $("findings");
  box.replaceChildren();
  let at = 0;
  for (const mark of marks) {
    if (mark.start < at) continue;
    box.append(document.createTextNode(text.slice(at, mark.start)));
    const node = element("mark", mark.kind, text.slice(mark.start, mark.end));
    node.title = mark.title;
    node.append(element("span", "tag", mark.tag));
    box.append(node);
    at = mark.end;
  }
  box.append(document.createTextNode(text.slice(at)));
  const found = [];
  if (spans.length) found.push(`${spans.length} explicit detail(s) replaced by placeholders`);
  if (cues.length) found.push(`${cues.length} phrase(s) that point to an attribute`);
  $("findings-summary").textContent = found.length ? found.join("; ") + "." : "No explicit detail and no phrase that points to you were found.";
}

function resultText() {
  return state.pieces.map((piece, i) => ("same" in piece ? piece.same : state.accepted[i] ? piece.after : piece.before)).join("");
}

// `text` into `box`, each phrase the rewrite left as it was marked where it stands
function appendMarkingLeft(box, text, phrases) {
  let at = 0;
  for (;;) {
    let next = null;
    for (const phrase of phrases) {
      const found = phrase ? text.indexOf(phrase, at) : -1;
      if (found >= 0 && (next === null || found < next.start)) next = { start: found, end: found + phrase.length };
    }
    if (!next) break;
    const mark = element("mark", "left", text.slice(next.start, next.end));
    mark.title = "not generalized: it goes out as it is";
    box.append(document.createTextNode(text.slice(at, next.start)), mark);
    at = next.end;
  }
  box.append(document.createTextNode(text.slice(at)));
}

// The honest part: the phrases that point to you and that the rewrite could not generalize
function renderLeft(unprotected) {
  const box = $("left-warning");
  box.replaceChildren();
  box.hidden = !unprotected.length;
  if (!unprotected.length) return;
  box.append(element("strong", "", "Still in the text to send: "));
  unprotected.forEach((left, i) => {
    if (i) box.append(document.createTextNode(", "));
    box.append(element("mark", "left", left.phrase));
    if (left.attributes.length) box.append(document.createTextNode(` (points to your ${left.attributes.join(", ")})`));
  });
  box.append(document.createTextNode(
    ". No fluent generalization was found, so it was left as it is: reword it yourself before you send the text."));
}

function diffNote(rewrite, changes, left, notChecked) {
  if (left.length) return "";  // the warning under the rewrite says what stayed
  if (rewrite && !rewrite.accepted) return `The rewrite was not used (${rewrite.reason}); the text to send keeps the placeholders.`;
  if (notChecked) return `${capitalized(notChecked)}: what it does not read goes out as you wrote it. Reword what points to you yourself before you send the text.`;
  if (!changes) return rewrite ? "Nothing to change: the text to send is your post as it is." : "This server does not rewrite (stealthflow ui --rewrite none).";
  return "";
}

function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function renderDiff(rewrite, unprotected, notChecked) {
  const box = $("diff");
  box.replaceChildren();
  const changes = state.pieces.filter((piece) => !("same" in piece)).length;
  const left = unprotected.map((u) => u.phrase);
  state.pieces.forEach((piece, i) => {
    if ("same" in piece) {
      appendMarkingLeft(box, piece.same, left);
      return;
    }
    const change = element("span", "change");
    if (piece.before) change.append(element("del", "", piece.before));
    if (piece.after) change.append(element("ins", "", piece.after));
    const button = element("button", "toggle");
    button.type = "button";
    button.addEventListener("click", () => {
      state.accepted[i] = !state.accepted[i];
      paintChange(change, button, state.accepted[i], piece);
      $("result").value = resultText();
    });
    change.append(button);
    paintChange(change, button, true, piece);
    box.append(change);
  });
  const note = diffNote(rewrite, changes, left, notChecked);
  if (note) box.append(element("p", notChecked ? "warning" : "note", note));
  renderLeft(unprotected);
  $("result").value = resultText();
  $("copy").disabled = false;
}

function paintChange(change, button, accepted, piece) {
  change.classList.toggle("undone", !accepted);
  const what = piece.attributes && piece.attributes.length ? ` (${piece.attributes.join(", ")})` : "";
  button.textContent = accepted ? "Undo" : "Redo";
  button.setAttribute("aria-pressed", String(!accepted));
  button.setAttribute("aria-label", `${accepted ? "Undo" : "Redo"} the change of “${piece.before || "nothing"}” to “${piece.after || "nothing"}”${what}`);
  button.title = accepted ? `Undo this change${what}` : "Take this change again";
}

function renderRisk(lines) {
  const list = $("risk");
  list.replaceChildren();
  for (const line of lines) {
    const item = element("li");
    const head = element("div", "risk-head");
    head.append(element("strong", "", line.name), element("span", `verdict ${line.attackers.length ? "measured" : "unmeasured"}`, line.badge));
    item.append(head, element("p", "", line.line));
    list.append(item);
  }
}

function clearResults() {
  state.pieces = [];
  state.accepted = [];
  $("findings").replaceChildren(element("p", "empty", "Paste a post and press “Check my post”."));
  $("findings-summary").textContent = "";
  $("diff").replaceChildren(element("p", "empty", "The rewrite appears here."));
  renderLeft([]);
  $("result").value = "";
  $("copy").disabled = true;
  $("risk").replaceChildren(element("li", "empty", "Shown after a check."));
  $("restored").replaceChildren();
}

async function check() {
  const text = $("post").value;
  if (!text.trim()) {
    $("status").textContent = "Paste a post first.";
    return;
  }
  const started = performance.now();
  document.body.classList.add("busy");
  $("check").disabled = true;
  const tick = setInterval(() => { $("status").textContent = `Checking and rewriting locally… ${((performance.now() - started) / 1000).toFixed(1)} s`; }, 100);
  try {
    const data = await api("POST", "/analyze", { text, session: state.session });
    state.vault = data.vault;
    state.request = data.request;  // a reply restores only the placeholders of this post
    state.pieces = data.diff;
    state.accepted = data.diff.map(() => true);
    renderFindings(text, data.spans, data.cues);
    renderDiff(data.rewrite, data.unprotected, data.not_checked);
    renderRisk(data.risk);
    const left = data.unprotected.length ? ` ${data.unprotected.length} phrase(s) could not be generalized: see under the rewrite.` : "";
    const warnings = data.warnings.length ? ` ${data.warnings.join(" ")}` : "";
    const unread = data.not_checked ? ` ${capitalized(data.not_checked)}.` : "";
    $("status").textContent = `Checked in ${data.seconds.toFixed(1)} s.${unread}${left}${warnings}`;
    loadPlaceholders();
  } catch (error) {
    $("status").textContent = `Not checked: ${error.message}`;
  } finally {
    clearInterval(tick);
    document.body.classList.remove("busy");
    $("check").disabled = false;
  }
}

async function copyResult() {
  const text = $("result").value;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    $("result").select();  // no clipboard permission: the selection, copied the old way
    document.execCommand("copy");
  }
  $("copied").textContent = "Copied.";
  setTimeout(() => { $("copied").textContent = ""; }, 3000);
}

async function restore() {
  const text = $("reply").value;
  const box = $("restored");
  if (!text.trim()) {
    $("restore-status").textContent = "Paste the reply first.";
    return;
  }
  if (!state.request) {
    $("restore-status").textContent = "Check the post this reply answers first: only its placeholders are restored.";
    return;
  }
  try {
    const data = await api("POST", "/restore", { text, session: state.session, vault: state.vault || undefined, request: state.request });
    box.replaceChildren(element("p", "restored-text", data.text));
    const notSent = data.withheld.filter((w) => w.reason === "not_in_request").length;
    const other = data.unresolved.length + data.withheld.length - notSent;
    const left = (notSent ? ` ${notSent} placeholder(s) not in the last checked post stay as they are.` : "") +
      (other ? ` ${other} other placeholder(s) stay as they are.` : "");
    $("restore-status").textContent = `Restored ${data.restored} placeholder(s).${left}`;
  } catch (error) {
    $("restore-status").textContent = `Not restored: ${error.message}`;
  }
}

// A sign-in link opened in this tab while the page is shown changes only the fragment: read it afresh.
window.addEventListener("hashchange", () => location.reload());

document.addEventListener("DOMContentLoaded", async () => {
  if (!(await signIn())) {
    showSignedOut();
    return;
  }
  useSession(sessionStorage.getItem("stealthflow-session") || newSessionId());
  $("check").addEventListener("click", check);
  $("post").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      check();
    }
  });
  $("copy").addEventListener("click", copyResult);
  $("restore").addEventListener("click", restore);
  $("forget").addEventListener("click", forgetSession);
  $("new-session").addEventListener("click", () => {
    clearResults();
    useSession(newSessionId());
  });
});
