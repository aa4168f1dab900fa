package danger

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

// TestHoldout runs the holdout corpus (testdata/holdout.jsonl): commands written independently
// of the rules and of the main corpus, to measure how the guard does on commands it was not
// tuned on. It reports recall and false positives and lists disagreements.
func TestHoldout(t *testing.T) {
	f, err := os.Open("testdata/holdout.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var wrong []string
	n, exact, dangerous, caught, safe, flagged := 0, 0, 0, 0, 0, 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c corpusCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		n++
		v := Judge(c.Cmd, Input{World: testWorld(c.Cwd)})
		got := v.Action.String()
		if c.Want == "allow" {
			safe++
			if got != "allow" {
				flagged++
			}
		} else {
			dangerous++
			if got != "allow" {
				caught++
			}
		}
		if got == c.Want {
			exact++
			continue
		}
		rule := ""
		if len(v.Findings) > 0 {
			rule = v.Findings[0].Rule + ": " + v.Findings[0].Why
		}
		wrong = append(wrong, fmt.Sprintf("want %-5s got %-5s [%s] %q (%s) %s", c.Want, got, c.Cat, c.Cmd, c.Note, rule))
	}
	sort.Strings(wrong)
	t.Logf("holdout: %d cases; exact %d (%.1f%%); recall %d/%d (%.1f%%); false positives %d/%d (%.1f%%)",
		n, exact, 100*float64(exact)/float64(n), caught, dangerous, 100*float64(caught)/float64(dangerous),
		flagged, safe, 100*float64(flagged)/float64(safe))
	if len(wrong) > 0 {
		t.Errorf("%d cases disagree with their label:\n%s", len(wrong), strings.Join(wrong, "\n"))
	}
}
