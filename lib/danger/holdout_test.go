package danger

import "testing"

// TestHoldout runs the holdout corpus (testdata/holdout.jsonl): commands written independently
// of the rules and of the main corpus, to measure how the guard does on commands it was not
// tuned on. It reports recall and false positives and lists disagreements.
func TestHoldout(t *testing.T) { score(t, "holdout", loadCases(t, "testdata/holdout.jsonl")) }
