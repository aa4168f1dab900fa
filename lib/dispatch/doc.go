// Package dispatch runs hooks the way Claude Code 2.1.330 does (REFERENCE.md): matcher groups
// chosen by the event's match field, identical handlers run once, every matching handler in
// parallel with its own timeout (terminate, then kill), the payload on stdin, exec or shell
// form, onFailure; each result read the way the client reads it (exit code per event, JSON only
// when stdout is one JSON object, plain text otherwise) and the results aggregated (deny >
// defer > ask > allow, block reasons, context joined, continue:false, updatedInput).
package dispatch
