// harness: the hooks of harness (https://github.com/hookkit/harness) for this client's tool
// calls. Written by `harness install --client opencode`, removed by `harness uninstall`;
// an edited copy is reported by `harness status` and `harness doctor`.
//
// Each tool call (MCP servers' and the subagent's task included) is handed to the hooks on
// stdin, in the client's own names, by their absolute paths with an argument vector (never a
// shell). A hook blocks the call by exit 2 (the reason on stderr) or by a JSON deny, ask or
// block on stdout: the plugin blocks the call with the reason, which the model reads. A plugin
// cannot ask the user, so an ask is a block. Anything else (the binary missing, a timeout, an
// exit other than 0 or 2, stdout that is not a JSON object) blocks too: a guard that cannot
// answer never lets a call through. Nothing is read from the environment to decide.
import { spawn } from "node:child_process";

const HARNESS = {
  "tools": {
    "bash": "Bash",
    "edit": "Edit",
    "glob": "Glob",
    "grep": "Grep",
    "read": "Read",
    "task": "Agent",
    "todowrite": "TodoWrite",
    "webfetch": "WebFetch",
    "write": "Write"
  },
  "aliases": {
    "apply_patch": [
      "Write",
      "Edit"
    ]
  },
  "builtin": [
    "apply_patch",
    "bash",
    "batch",
    "edit",
    "glob",
    "grep",
    "invalid",
    "list",
    "lsp",
    "plan_exit",
    "question",
    "read",
    "skill",
    "task",
    "todoread",
    "todowrite",
    "webfetch",
    "write"
  ],
  "hooks": [
    {
      "hook": "SecurityValidator",
      "event": "PreToolUse",
      "matcher": "Bash|PowerShell",
      "argv": [
        "/opt/harness bin/SecurityValidator",
        "--client=opencode",
        "--timeout=5",
        "--home=/home/dev/it's/harness"
      ],
      "timeout": 5
    },
    {
      "hook": "AuditLog",
      "event": "PostToolUse",
      "matcher": "*",
      "argv": [
        "/opt/harness bin/AuditLog",
        "--client=opencode",
        "--timeout=7",
        "--home=/home/dev/it's/harness"
      ],
      "timeout": 7
    }
  ]
};

// names are the names a matcher is tested on: the tool's own, its Claude Code name, its
// aliases, and for a tool the client does not ship (an MCP server's) mcp__<name>.
function names(tool) {
  const out = [tool];
  const claude = HARNESS.tools[tool];
  if (claude) out.push(claude);
  for (const a of HARNESS.aliases[tool] || []) out.push(a);
  if (!claude && !HARNESS.builtin.includes(tool)) out.push("mcp__" + tool);
  return out;
}

function selects(matcher, tool) {
  if (!matcher || matcher === "*") return true;
  const ns = names(tool);
  if (matcher.split("|").some((m) => ns.includes(m))) return true;
  let re;
  try {
    re = new RegExp("^(?:" + matcher + ")$");
  } catch {
    return true; // a matcher that does not compile selects everything: never a gap
  }
  return ns.some((n) => re.test(n));
}

// run starts one hook and resolves to {code, stdout, stderr}, or {error} when it could not
// run or did not end in time.
function run(h, payload) {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(h.argv[0], h.argv.slice(1), { stdio: ["pipe", "pipe", "pipe"], shell: false });
    } catch (e) {
      resolve({ error: "could not start: " + e.message });
      return;
    }
    let out = "", err = "", done = false;
    const finish = (r) => {
      if (!done) {
        done = true;
        clearTimeout(timer);
        resolve(r);
      }
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish({ error: "did not answer within " + h.timeout + "s" });
    }, h.timeout * 1000);
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", (e) => finish({ error: "could not start: " + e.message }));
    child.on("close", (code, signal) => finish(signal ? { error: "killed by " + signal } : { code, stdout: out, stderr: err }));
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload) + "\n");
  });
}

// verdict reads a hook's answer: null to let the call go ahead, else the reason to block.
function verdict(h, r) {
  const who = h.hook + " (harness)";
  if (r.error) return who + " " + r.error + ": blocked, as a guard that cannot answer never lets a call through";
  if (r.code === 2) return r.stderr.trim() || who + " blocked this call";
  if (r.code !== 0) return who + " failed (exit " + r.code + "): blocked. " + r.stderr.trim();
  const text = r.stdout.trim();
  if (text === "") return null;
  let js;
  try {
    js = JSON.parse(text);
  } catch {
    js = undefined;
  }
  if (js === null || typeof js !== "object" || Array.isArray(js)) {
    return who + " printed what the plugin cannot read: blocked";
  }
  const spec = js.hookSpecificOutput || {};
  const d = spec.permissionDecision;
  if (d === "deny" || d === "ask" || d === "defer" || js.decision === "block" || js.decision === "deny" || js.continue === false) {
    return spec.permissionDecisionReason || js.reason || js.stopReason || who + " blocked this call";
  }
  return null;
}

function freeze(v) {
  if (v !== null && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) freeze(v[k]);
  }
}

function payload(event, input, args, directory, extra) {
  return Object.assign(
    {
      session_id: input.sessionID || "",
      transcript_path: "",
      cwd: directory || process.cwd(),
      hook_event_name: event,
      tool_name: input.tool,
      tool_input: args ?? {},
      tool_use_id: input.callID || "",
    },
    extra,
  );
}

export const HarnessHooks = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    const p = payload("PreToolUse", input, output.args, directory);
    for (const h of HARNESS.hooks) {
      if (h.event !== "PreToolUse" || !selects(h.matcher, input.tool)) continue;
      const why = verdict(h, await run(h, p));
      if (why !== null) throw new Error(why);
    }
    // What runs is what the hooks judged: a plugin after this one (a project's own) that
    // changes the arguments throws, and the call with it.
    freeze(output.args);
  },
  "tool.execute.after": async (input, output) => {
    const response = { output: output?.output ?? "", title: output?.title ?? "", metadata: output?.metadata ?? {} };
    const p = payload("PostToolUse", input, input.args, directory, { tool_response: response });
    for (const h of HARNESS.hooks) {
      if (h.event !== "PostToolUse" || !selects(h.matcher, input.tool)) continue;
      await run(h, p); // the call has run: nothing to block, the hooks record it
    }
  },
});
