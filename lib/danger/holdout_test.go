package danger

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestHoldouts runs every holdout (testdata/holdout*.jsonl): commands written apart from the
// rules and the main corpus, each by a separate session from the specification alone, to
// measure the guard on commands it was not tuned on. Each reports its exact agreement, recall
// and false positives and fails on every disagreement. What each measured before any change,
// and what was fixed since, is in docs/testing.md (and in git history).
func TestHoldouts(t *testing.T) {
	files, err := filepath.Glob("testdata/holdout*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no holdouts found: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		t.Run(name, func(t *testing.T) { score(t, name, loadCases(t, f)) })
	}
}
