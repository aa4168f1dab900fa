package ship

import (
	"fmt"
	"path/filepath"
	"strings"
)

// CollectorConfig is an OpenTelemetry Collector configuration that takes the audit trail in:
// the OTLP receiver for what Ship sends, and the filelog receiver (collector-contrib) reading
// the audit files under harnessHome itself, each line parsed as JSON and its join fields
// renamed as Ship names them. The debug exporter stands for the organisation's own.
func CollectorConfig(harnessHome string, otlp, filelog bool) string {
	var b strings.Builder
	b.WriteString(`# OpenTelemetry Collector configuration for harness's audit trail
# (harness audit collector-config; docs/cli.md). Merge it into the collector you run and
# replace the debug exporter with your own.
`)
	if otlp {
		b.WriteString(`#
# otlp: harness audit ship and the AuditShip hook send each record as an OTLP log record
# (event harness.audit; body: the audit line; attributes: session.id, prompt.id, tool_name,
# tool_use_id, harness.record.id, harness.chain.head, ...). Point audit.ship.endpoint at
# http://<this collector>:4318.
`)
	}
	if filelog {
		b.WriteString(`#
# filelog (opentelemetry-collector-contrib): the collector reads the audit files itself.
# Rotated files (.N.jsonl) are the same files renamed: filelog knows them by their first
# bytes and does not read them twice. file_storage keeps its place across restarts.
`)
	}
	b.WriteString("receivers:\n")
	if otlp {
		b.WriteString(`  otlp:
    protocols:
      http:
        # every interface: the machines that ship are elsewhere (127.0.0.1:4318 for this one only)
        endpoint: 0.0.0.0:4318
`)
	}
	if filelog {
		fmt.Fprintf(&b, `  filelog/harness:
    include:
      - %s
    start_at: beginning
    include_file_path: true
    storage: file_storage/harness
    operators:
      - type: json_parser
        timestamp:
          parse_from: attributes.time
          layout_type: gotime
          layout: "2006-01-02T15:04:05.999999999Z07:00"
`, yamlQuote(filepath.Join(harnessHome, "projects", "*", "audit", "*.jsonl")))
		for _, f := range []string{"session", "prompt_id", "tool"} {
			fmt.Fprintf(&b, `      - type: move
        if: 'attributes.%s != nil'
        from: attributes.%s
        to: attributes["%s"]
`, f, f, attrNames[f])
		}
		b.WriteString(`
extensions:
  file_storage/harness:
    directory: /var/lib/otelcol/harness
    create_directory: true
`)
	}
	b.WriteString(`
exporters:
  debug:
    verbosity: detailed

service:
`)
	if filelog {
		b.WriteString("  extensions: [file_storage/harness]\n")
	}
	var recv []string
	if otlp {
		recv = append(recv, "otlp")
	}
	if filelog {
		recv = append(recv, "filelog/harness")
	}
	fmt.Fprintf(&b, `  pipelines:
    logs/harness:
      receivers: [%s]
      exporters: [debug]
`, strings.Join(recv, ", "))
	return b.String()
}

// yamlQuote quotes a path for YAML (a glob starts no YAML alias, but a path may hold ': ').
func yamlQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
