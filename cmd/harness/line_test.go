package main

import (
	"slices"
	"strings"
	"testing"
)

func TestReadLine(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"harness", "harness"},
		{"harness status", "harness status"},
		{"harness run PreToolUse --tool Bash --input {}", "harness run --tool Bash --input {} PreToolUse"},
		{"harness run --tool=Bash PreToolUse --json", "harness run --tool=Bash --json PreToolUse"},
		{"harness run -- PreToolUse", "harness run PreToolUse"},
		{"harness run --payload - PreToolUse", "harness run --payload - PreToolUse"},
		{"harness install --settings=-odd.json", "harness install --settings=-odd.json"},
		{"harness new Guard --event PreToolUse --guard", "harness new --event PreToolUse --guard Guard"},
		{"harness validate a.json --json b.json", "harness validate --json a.json b.json"},
		{"harness validate -- -odd.json", "harness validate -- -odd.json"},
		{"harness audit tail --project . -n 5", "harness audit --project . tail -n 5"},
		{"harness audit --project=. why ID", "harness audit --project=. why ID"},
		{"harness uninstall --purge --help", "harness uninstall --help"},
		{"harness run PreToolUse --help", "harness run --help"},
		{"harness help audit ship", "harness audit ship --help"},
		{"harness -h", "harness --help"},
		{"harness --version", "harness --version"},
	} {
		got, err := readLine(app(), strings.Fields(tt.in))
		if err != nil || !slices.Equal(got, strings.Fields(tt.want)) {
			t.Errorf("readLine(%s) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestReadLineRefuses(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"harness uninstall x --help", `harness uninstall: unexpected argument "x": it takes none (harness uninstall --help)`},
		{"harness uninstall --help x", `harness uninstall: unexpected argument "x": it takes none`},
		{"harness status extra", `harness status: unexpected argument "extra"`},
		{"harness plugin a b", `harness plugin: unexpected argument "b": it takes DIR`},
		{"harness unistall", `harness: unknown command "unistall"; did you mean "uninstall"?`},
		{"harness help unistall", `harness: unknown command "unistall"; did you mean "uninstall"?`},
		{"harness audit shp", `harness: unknown command "audit shp"; did you mean "audit ship"?`},
		{"harness install --onyl X", `harness install: unknown flag "--onyl"; did you mean "--only"?`},
		{"harness install --built=x --bulit=y", `harness install: unknown flag "--bulit" (`}, // hidden flags are never suggested
		{"harness audit ship --projet .", `harness audit ship: unknown flag "--projet"; did you mean "--project"?`},
		{"harness install --scope", `harness install: flag "--scope" needs a value`},
		{"harness uninstall --settings --help", `harness uninstall: flag "--settings" needs a value`},
		{"harness audit ship --project -h", `harness audit ship: flag "--project" needs a value`},
		{"harness --bogus", `harness: unknown flag "--bogus"`},
	} {
		_, err := readLine(app(), strings.Fields(tt.in))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("readLine(%s): %v, want %s", tt.in, err, tt.want)
		}
	}
}
