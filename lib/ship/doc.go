// Package ship sends a project's audit records to an OpenTelemetry pipeline as OTLP/HTTP log
// records, from a checkpoint that moves only when the endpoint has accepted a batch, so a
// failed or interrupted run loses nothing and a retried batch carries the same record ids.
package ship
