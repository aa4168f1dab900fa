// pi's extension API: tool_call before each tool runs ({block, reason} stops it), tool_result
// after.
export default function harness(pi) {
  pi.on("tool_call", async (event, ctx) => {
    const input = { tool: event.toolName, sessionID: sessionOf(ctx), callID: event.toolCallId };
    const p = payload("PreToolUse", input, event.input, ctx?.cwd);
    for (const h of HARNESS.hooks) {
      if (h.event !== "PreToolUse" || !selects(h.matcher, event.toolName)) continue;
      const why = verdict(h, await run(h, p));
      if (why !== null) return { block: true, reason: why };
    }
    // What runs is what the hooks judged: a handler after this one (a project's own extension)
    // that changes the arguments throws, and pi blocks the call.
    freeze(event.input);
  });
  pi.on("tool_result", async (event, ctx) => {
    const input = { tool: event.toolName, sessionID: sessionOf(ctx), callID: event.toolCallId };
    const response = { content: event.content ?? [], is_error: !!event.isError };
    const p = payload("PostToolUse", input, event.input, ctx?.cwd, { tool_response: response });
    for (const h of HARNESS.hooks) {
      if (h.event !== "PostToolUse" || !selects(h.matcher, event.toolName)) continue;
      await run(h, p); // the call has run: nothing to block, the hooks record it
    }
  });
}

function sessionOf(ctx) {
  try {
    return ctx?.sessionManager?.getSessionId?.() ?? "";
  } catch {
    return "";
  }
}
