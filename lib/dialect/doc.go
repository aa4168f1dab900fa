// Package dialect declares each hook client, one file per client (client_<name>.go): what it
// names, fires and reads differently from Claude Code, where its hook files are and what kind
// each is, what it cannot do and what is done instead, and where its transcripts are; the
// installer, linter, doctor, canaries and status read those declarations and never branch on a
// client's name. At the edge of every hook it translates: a payload is rewritten into Claude
// Code's shape before any hook reads it (Detect names the client by the payload's shape when
// the command line does not), and the answer is rendered the way the client reads it, choosing
// the safe answer where the client cannot express one. Payload and Read play the client's side
// for `harness doctor --client`.
package dialect
