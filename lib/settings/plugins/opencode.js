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
