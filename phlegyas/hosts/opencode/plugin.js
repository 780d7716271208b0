// phlegyas OpenCode plugin: written by `phlegyas install --agent opencode`, removed by `phlegyas uninstall`.
//
// OpenCode has no command hooks: a plugin's "tool.execute.before" handler is the one place that sees
// every tool call before it runs, and throwing an Error there is the one way to stop it (the message is
// what the model is told). So for each call this plugin runs the phlegyas hook process (the argv below,
// baked in by install: no shell, no PATH lookup), hands it the call as one JSON event on stdin and
// obeys the one JSON line it prints: {"decision": "allow"|"ask"|"deny"|"undecided", "reason": ...}.
//
// - deny: throw, with phlegyas's reason;
// - ask: throw too. OpenCode (1.18.33) declares a "permission.ask" plugin hook but never calls it, and
//   it gives a plugin no way to open its own permission prompt for one call; `opencode run` rejects
//   every prompt anyway. Blocking with the reason is the safe reading of "a person should decide".
// - allow, undecided: return, and OpenCode's own permission settings apply as usual (a plugin cannot
//   skip them, and phlegyas does not try to);
// - the hook cannot start, times out, exits non-zero, or prints anything but that one line: throw.
//   A gate that cannot answer never lets a call through.
import { spawn } from "node:child_process";

const HOOK_ARGV = __PHLEGYAS_ARGV__;
const TIMEOUT_MS = __PHLEGYAS_TIMEOUT_MS__;
const MAX_OUTPUT = 4 * 1024 * 1024;
const DECISIONS = new Set(["allow", "ask", "deny", "undecided"]);

function runHook(event, cwd) {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(HOOK_ARGV[0], HOOK_ARGV.slice(1), { cwd, shell: false, stdio: ["pipe", "pipe", "pipe"] });
    } catch (err) {
      resolve({ error: `cannot start the hook: ${err && err.message}` });
      return;
    }
    const out = [];
    const err = [];
    let size = 0;
    let done = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => {
      try { child.kill("SIGKILL"); } catch (_) { /* gone already */ }
      finish({ error: `the hook did not answer within ${TIMEOUT_MS / 1000} s` });
    }, TIMEOUT_MS);
    const collect = (into) => (chunk) => {
      size += chunk.length;
      if (size > MAX_OUTPUT) {
        try { child.kill("SIGKILL"); } catch (_) { /* gone already */ }
        finish({ error: "the hook printed too much" });
        return;
      }
      into.push(chunk);
    };
    child.stdout.on("data", collect(out));
    child.stderr.on("data", collect(err));
    child.on("error", (e) => finish({ error: `cannot run the hook: ${e && e.message}` }));
    child.on("close", (code, signal) => finish({
      code, signal, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8"),
    }));
    child.stdin.on("error", () => { /* the hook exited before reading: its exit status says why */ });
    child.stdin.end(JSON.stringify(event));
  });
}

function parseAnswer(stdout) {
  const lines = stdout.split("\n").filter((line) => line.trim() !== "");
  if (lines.length !== 1) return null;
  let answer;
  try {
    answer = JSON.parse(lines[0]);
  } catch (_) {
    return null;
  }
  if (!answer || typeof answer !== "object" || !DECISIONS.has(answer.decision)) return null;
  return answer;
}

function blocked(result) {
  if (result.error) return `phlegyas: ${result.error}; blocked`;
  const answer = parseAnswer(result.stdout || "");
  const said = (answer && typeof answer.reason === "string" && answer.reason) || (result.stderr || "").trim();
  const how = result.signal ? `was killed by ${result.signal}` : `exited with status ${result.code}`;
  return said ? `${said}` : `phlegyas: the hook ${how}; blocked`;
}

export const PhlegyasPlugin = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    const event = {
      hook_event_name: "tool.execute.before",
      tool: input.tool,
      sessionID: input.sessionID,
      callID: input.callID,
      args: output.args,
      cwd: directory,
    };
    const result = await runHook(event, directory);
    if (result.error || result.code !== 0) throw new Error(blocked(result));
    const answer = parseAnswer(result.stdout);
    if (answer === null) {
      throw new Error(`phlegyas: the hook's answer is not one decision line (${JSON.stringify(
        (result.stdout || "").slice(0, 200))}); blocked`);
    }
    const reason = typeof answer.reason === "string" && answer.reason ? answer.reason : "phlegyas: no reason given";
    if (answer.decision === "deny") throw new Error(reason);
    if (answer.decision === "ask") {
      throw new Error(`phlegyas asks: ${reason.replace(/^phlegyas: /, "")} (OpenCode cannot ask from a plugin)`);
    }
  },
});
