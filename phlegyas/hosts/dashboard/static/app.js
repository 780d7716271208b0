// phlegyas dashboard: the live pending list, countdowns, answers without a reload, copy buttons.
// Data from the server is only ever put into the page as text (textContent), never as HTML.
"use strict";

const csrf = () => document.querySelector('meta[name="csrf-token"]').content;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function shownInput(r) {
  const command = r.tool_input && r.tool_input.command;
  return r.tool_name === "Bash" && typeof command === "string" ? command : JSON.stringify(r.tool_input, null, 2);
}

function decideForm(r, verdict) {
  const form = el("form", {class: verdict === "deny" ? "decide deny" : "decide", method: "post",
                           action: `/requests/${r.request_id}/${verdict}`});
  form.append(el("input", {type: "hidden", name: "csrf", value: csrf()}));
  if (verdict === "deny") {
    form.append(el("input", {class: "reason", type: "text", name: "reason", maxlength: "1000",
                             placeholder: "reason (the agent reads it)", "aria-label": "reason"}));
  }
  form.append(el("button", {class: verdict, type: "submit", text: verdict === "deny" ? "Deny" : "Approve"}));
  return form;
}

function card(r) {
  const meta = el("dl", {class: "meta"});
  for (const [label, value] of [["machine", r.machine], ["cwd", r.cwd || "-"], ["session", r.session_id], ["agent", r.agent_id],
                                ["workflow", r.workflow_id]]) {
    if (value) meta.append(el("dt", {text: label}), el("dd", {text: value}));
  }
  const why = el("p", {class: "why"}, el("strong", {text: "Why it asks"}), ` (${r.tier}): ${r.reason}`);
  return el("article", {class: "request", dataset: {requestId: r.request_id}},
    el("header", {}, el("span", {class: "tool", text: r.tool_name}),
       el("span", {class: "expiry", dataset: {expiresIn: String(r.expires_in)}, text: `expires in ${r.expires_in} s`})),
    el("pre", {class: "command", text: shownInput(r)}), meta, why,
    r.details && r.details.length ? el("pre", {class: "details", text: r.details.join("\n")}) : null,
    decideForm(r, "approve"), decideForm(r, "deny"));
}

function render(data) {
  const list = document.getElementById("requests");
  const typing = document.activeElement && document.activeElement.classList.contains("reason")
    ? document.activeElement.closest("article") : null;
  const keep = new Map();
  if (typing) keep.set(typing.dataset.requestId, typing);  // do not take a half-typed reason away
  list.replaceChildren(...(data.requests.length
    ? data.requests.map(r => keep.get(r.request_id) || card(r))
    : [el("p", {class: "empty", id: "nothing", text: "Nothing is waiting."})]));
  document.getElementById("pending-count").textContent = String(data.requests.length);
  const answered = document.getElementById("answered");
  answered.replaceChildren(...data.answered.map(a => el("p", {class: "note", dataset: {requestId: a.request_id},
    text: `${a.tool_name} request ${a.request_id.slice(0, 8)}: ${a.status}` +
          (a.approver_id ? ` by ${a.approver_id}` : "") + (a.resolved_via ? ` via ${a.resolved_via}` : "")})));
}

async function submit(event) {
  const form = event.target.closest("form.decide");
  if (!form) return;
  event.preventDefault();
  const answer = await fetch(form.action, {method: "POST", body: new URLSearchParams(new FormData(form)),
    headers: {"X-CSRF-Token": csrf(), "Accept": "application/json"}, credentials: "same-origin"});
  const article = form.closest("article");
  if (answer.ok) {
    article.remove();
  } else {
    const body = await answer.json().catch(() => ({error: `HTTP ${answer.status}`}));
    article.append(el("p", {class: "error", text: body.error || `HTTP ${answer.status}`}));
  }
}

function tick() {
  for (const node of document.querySelectorAll(".expiry[data-expires-in]")) {
    const left = Math.max(0, Number(node.dataset.expiresIn) - 1);
    node.dataset.expiresIn = String(left);
    node.textContent = left ? `expires in ${left} s` : "expired";
  }
}

function live() {
  const state = document.getElementById("live-state");
  const source = new EventSource("/events");
  source.addEventListener("pending", message => render(JSON.parse(message.data)));
  source.onopen = () => { state.textContent = "Live: new requests appear here by themselves."; };
  source.onerror = () => { state.textContent = "Reconnecting…"; };
  document.getElementById("requests").addEventListener("submit", submit);
  setInterval(tick, 1000);
}

function copyButtons() {
  for (const button of document.querySelectorAll("button.copy")) {
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(button.dataset.copy);
        button.textContent = "copied";
      } catch (error) {
        button.textContent = "select and copy";
      }
    });
  }
}

document.addEventListener("DOMContentLoaded", () => {
  if (document.body.dataset.page === "pending") live();
  copyButtons();
});
