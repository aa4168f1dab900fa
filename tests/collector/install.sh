#!/usr/bin/env bash
# Builds the OpenTelemetry Collector that tests/collector runs, with the official collector
# builder from the Go module proxy and core components only: the OTLP receiver (what
# `harness audit ship` sends to) and the debug exporter (whose detailed output the test reads).
# The binary goes to ${HARNESS_COLLECTOR_DIR:-~/.cache/harness}/otelcol-<version>/otelcol-harness,
# where the test looks for it. Idempotent: a built collector is kept (the build takes minutes).
#
# Go module proxy traffic only.
set -euo pipefail

version=0.165.0
dir=${HARNESS_COLLECTOR_DIR:-$HOME/.cache/harness}/otelcol-$version
bin=$dir/otelcol-harness

if [ -x "$bin" ]; then
	echo "$bin: present"
	exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/manifest.yaml" <<MANIFEST
dist:
  name: otelcol-harness
  description: OpenTelemetry Collector for harness's tests (OTLP receiver, debug exporter)
  version: $version
  output_path: $work/dist
receivers:
  - gomod: go.opentelemetry.io/collector/receiver/otlpreceiver v$version
exporters:
  - gomod: go.opentelemetry.io/collector/exporter/debugexporter v$version
MANIFEST

echo "$bin: building with go.opentelemetry.io/collector/cmd/builder@v$version"
GOFLAGS=-trimpath go run "go.opentelemetry.io/collector/cmd/builder@v$version" --config "$work/manifest.yaml"
mkdir -p "$dir"
cp "$work/dist/otelcol-harness" "$bin.tmp"
"$bin.tmp" components | grep -q 'otlpreceiver v'"$version"
mv "$bin.tmp" "$bin"
echo "$bin: built"
