package danger

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/hookkit/harness/lib/shell"
)

// corpusCase is one labelled command of testdata/corpus.jsonl.
type corpusCase struct {
	Want string `json:"want"`
	Cmd  string `json:"cmd"`
	Cat  string `json:"cat"`
	Note string `json:"note"`
	Cwd  string `json:"cwd"`
	// Project, when set, is the session's project (Linux only; default /home/dev/proj), and the
	// default working directory.
	Project string `json:"project"`
	// Known says why the guard is known to get this case wrong: it is reported, not failed.
	Known string `json:"known"`
	// Shell "powershell" judges Cmd as a PowerShell tool script (JudgePowerShell).
	Shell string `json:"shell"`
	// Rule, when set, is the rule the case must be decided by (the first finding).
	Rule string `json:"rule"`
	// OS ("darwin", "windows"; default linux) is the system the command runs on, with that
	// system's home for user dev (/Users/dev, C:\Users\dev) unless Home names another.
	OS   string `json:"os"`
	Home string `json:"home"`
}

// world is the machine a case is labelled for.
func (c corpusCase) world() shell.World {
	if c.OS == "" || c.OS == "linux" {
		w := testWorld(cmp.Or(c.Cwd, c.Project))
		w.Project = cmp.Or(c.Project, w.Project)
		return w
	}
	home := c.Home
	if home == "" {
		home = map[string]string{"darwin": "/Users/dev", "windows": `C:\Users\dev`}[c.OS]
	}
	sep := "/"
	if c.OS == "windows" {
		sep = `\`
	}
	proj := home + sep + "proj"
	cwd := cmp.Or(c.Cwd, proj)
	env := map[string]string{"HOME": home, "USER": "dev", "USERPROFILE": home, "PATH": "/usr/local/bin:/usr/bin:/bin"}
	return shell.World{Cwd: cwd, Home: home, Project: proj, OS: c.OS,
		Env: func(k string) (string, bool) { v, ok := env[k]; return v, ok }}
}

func loadCorpus(t testing.TB) []corpusCase { return loadCases(t, "testdata/corpus.jsonl") }

func loadCases(t testing.TB, name string) []corpusCase {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c corpusCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s line %d: %v", name, len(out)+1, err)
		}
		out = append(out, c)
	}
	return out
}

// testWorld is the machine the corpus is labelled for.
func testWorld(cwd string) shell.World {
	if cwd == "" {
		cwd = "/home/dev/proj"
	}
	env := map[string]string{"HOME": "/home/dev", "USER": "dev", "PATH": "/usr/local/bin:/usr/bin:/bin", "SHELL": "/bin/bash"}
	return shell.World{Cwd: cwd, Home: "/home/dev", Project: "/home/dev/proj", OS: "linux",
		Env: func(k string) (string, bool) { v, ok := env[k]; return v, ok }}
}

func TestCorpus(t *testing.T) { score(t, "corpus", loadCorpus(t)) }

// score judges every case, logs exact agreement, recall and false positives, and fails on
// every case that disagrees with its label.
func score(t *testing.T, name string, cases []corpusCase) {
	var wrong []string
	dangerous, caught, safe, flagged, exact := 0, 0, 0, 0, 0
	// per category: cases, exact, dangerous, caught, safe, flagged
	perCat := map[string]*[6]int{}
	for _, c := range cases {
		v := Judge(c.Cmd, Input{World: c.world()})
		if c.Shell == "powershell" {
			v = JudgePowerShell(c.Cmd, Input{World: c.world()})
		}
		got := v.Action.String()
		if c.Rule != "" && (len(v.Findings) == 0 || v.Findings[0].Rule != c.Rule) {
			got += " (not by rule " + c.Rule + ")"
		}
		pc := perCat[c.Cat]
		if pc == nil {
			pc = new([6]int)
			perCat[c.Cat] = pc
		}
		pc[0]++
		// Caught and flagged count what was let through, whichever rule decided.
		if c.Want == "allow" {
			safe++
			pc[4]++
			if v.Action != Allow {
				flagged++
				pc[5]++
			}
		} else {
			dangerous++
			pc[2]++
			if v.Action != Allow {
				caught++
				pc[3]++
			}
		}
		if got == c.Want {
			exact++
			pc[1]++
			if c.Known != "" {
				t.Errorf("%q is marked as a known miss (%s) but is now decided as labelled: drop the mark", c.Cmd, c.Known)
			}
			continue
		}
		if c.Known != "" {
			t.Logf("known miss: want %s got %s %q: %s", c.Want, got, c.Cmd, c.Known)
			continue
		}
		rule := ""
		if len(v.Findings) > 0 {
			rule = v.Findings[0].Rule + ": " + v.Findings[0].Why
		}
		wrong = append(wrong, fmt.Sprintf("want %-5s got %-5s [%s] %q  (%s) %s", c.Want, got, c.Cat, c.Cmd, c.Note, rule))
	}
	sort.Strings(wrong)
	t.Logf("%s: %d cases; exact %d (%.1f%%); recall %d/%d (%.1f%%); false positives %d/%d (%.1f%%)",
		name, len(cases), exact, 100*float64(exact)/float64(len(cases)), caught, dangerous, 100*float64(caught)/float64(dangerous),
		flagged, safe, 100*float64(flagged)/float64(safe))
	cats := make([]string, 0, len(perCat))
	for k := range perCat {
		cats = append(cats, k)
	}
	sort.Strings(cats)
	for _, k := range cats {
		pc := perCat[k]
		t.Logf("  %-24s exact %d/%d; caught %d/%d; flagged %d/%d", k, pc[1], pc[0], pc[3], pc[2], pc[5], pc[4])
	}
	if len(wrong) > 0 {
		t.Errorf("%d cases disagree with their label:\n%s", len(wrong), strings.Join(wrong, "\n"))
	}
}
