// Package dispatch runs hooks the way Claude Code 2.1.330 does (REFERENCE.md), for `harness
// run`, `harness test` and the canaries: matcher groups of every settings file chosen by the
// event's match field and their if filters, identical handlers run once, every matching handler
// in parallel with its own timeout (terminate, then kill), the payload on stdin, exec or shell
// form, onFailure, a hook that answers async run again for its answer; each result read the
// way the client reads it (exit code per event, JSON only when stdout is one JSON object, plain
// text otherwise) and the results aggregated (deny > defer > ask > allow, block reasons,
// context joined, continue:false, updatedInput). A Runner adds Go callbacks and per-agent
// hooks to a file's.
package dispatch
