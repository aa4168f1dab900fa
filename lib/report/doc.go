// Package report renders the audit trail as one self-contained HTML page: counts per client
// and project, blocks and asks over time, the rules that fired, the sessions and the chain's
// state.
package report
