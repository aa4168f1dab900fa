package paths

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/sandbox"
)

type pathCase struct {
	Want  string              `json:"want"`
	Tool  string              `json:"tool"`
	Input json.RawMessage     `json:"input"`
	Cat   string              `json:"cat"`
	Note  string              `json:"note"`
	Cwd   string              `json:"cwd"`
	Setup []map[string]string `json:"setup"`
	// Known marks a case a holdout found that the guard still decides otherwise, saying why.
	Known string `json:"known"`
}

func TestCorpus(t *testing.T) { runCorpus(t, "path corpus", "testdata/corpus.jsonl") }

// TestHoldout runs a holdout (testdata/holdout.jsonl) written by a separate session from the
// README and the issue alone, without sight of the rules or the corpus: 229 cases across every
// tier, tool and path trick, all decided as labelled when first run (2026-11-22).
func TestHoldout(t *testing.T) { runCorpus(t, "path holdout", "testdata/holdout.jsonl") }

// TestHoldout2 runs a second holdout (testdata/holdout2.jsonl) of hard cases (symlink chains and
// dangling links, escapes spelled many ways, .env variants, git look-alikes, writes inside
// wrappers), written by a separate session from the README and the issue alone. First run:
// 230/230 (88 deny, 41 ask, 101 allow).
func TestHoldout2(t *testing.T) { runCorpus(t, "path holdout2", "testdata/holdout2.jsonl") }

// TestHoldout3 and TestHoldout4 run two holdouts of the issue "SecretGuard and WriteProtector on
// what fresh suites find" (testdata/holdout3.jsonl, 303 cases; holdout4.jsonl, 302), written by
// separate sessions from the README, docs/hooks.md, docs/configuration.md and the issue alone,
// the second to see whether the fixes generalise. Figures: docs/testing.md.
func TestHoldout3(t *testing.T) { runCorpus(t, "path holdout3", "testdata/holdout3.jsonl") }
func TestHoldout4(t *testing.T) { runCorpus(t, "path holdout4", "testdata/holdout4.jsonl") }

// TestHoldout5 runs a third (testdata/holdout5.jsonl, 311 cases), written from the same pages
// after the fixes the first two found, as the measure of whether they generalise.
func TestHoldout5(t *testing.T) { runCorpus(t, "path holdout5", "testdata/holdout5.jsonl") }

// TestHoldout6 runs a fourth (testdata/holdout6.jsonl, 303 cases), written from the README and
// the issue alone (not the rule list) after every fix the others found: the measure the issue's
// targets are read on.
func TestHoldout6(t *testing.T) { runCorpus(t, "path holdout6", "testdata/holdout6.jsonl") }

// TestHoldout7 runs a fifth (testdata/holdout7.jsonl, 301 cases), written from the README and
// the issue alone after the fixes the fourth found, weighted by how often agents do each thing.
func TestHoldout7(t *testing.T) { runCorpus(t, "path holdout7", "testdata/holdout7.jsonl") }

// TestHoldout8 runs a sixth (testdata/holdout8.jsonl, 303 cases), written from the README and
// the issue alone after every fix above: a week of an agent's work in several stacks.
func TestHoldout8(t *testing.T) { runCorpus(t, "path holdout8", "testdata/holdout8.jsonl") }

// TestHoldout9 runs a seventh (testdata/holdout9.jsonl, 311 cases), written from the README,
// the docs and the issue alone after holdout8's fixes, across every tool route.
func TestHoldout9(t *testing.T) { runCorpus(t, "path holdout9", "testdata/holdout9.jsonl") }

func runCorpus(t *testing.T, name, file string) {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []pathCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c pathCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("line %d: %v", len(cases)+1, err)
		}
		cases = append(cases, c)
	}
	// Every case runs twice: with home and project in the user cache, wherever that is (often
	// outside the temp dirs), and with them inside a directory listed as temp, as in CI and
	// containers where HOME is under /tmp. The labels hold in both: the most specific directory
	// decides.
	// The user's own cache, not the sandbox's (lib/sandbox), which sits deeper inside it.
	cache := sandbox.Cache()
	if cache == "" || os.MkdirAll(cache, 0o755) != nil {
		cache = t.TempDir()
	}
	for _, layout := range []struct {
		name, base string
		inTemp     bool
	}{{"home in the user cache", cache, false}, {"home in a temp dir", t.TempDir(), true}} {
		t.Run(layout.name, func(t *testing.T) { runLayout(t, name, cases, layout.base, layout.inTemp) })
	}
}

func runLayout(t *testing.T, name string, cases []pathCase, base string, inTemp bool) {
	var wrong []string
	counts := map[string][2]int{}
	for i, c := range cases {
		root, err := os.MkdirTemp(base, "harness-paths-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(root)
		root, _ = filepath.EvalSymlinks(root)
		home, tmp := filepath.Join(root, "home"), filepath.Join(root, "tmp")
		proj := filepath.Join(home, "proj")
		for _, d := range []string{proj, tmp} {
			os.MkdirAll(d, 0o755)
		}
		sub := strings.NewReplacer("{home}", home, "{proj}", proj, "{tmp}", tmp)
		for _, s := range c.Setup {
			if d, ok := s["dir"]; ok {
				os.MkdirAll(sub.Replace(d), 0o755)
			}
			if l, ok := s["link"]; ok {
				os.MkdirAll(filepath.Dir(sub.Replace(l)), 0o755)
				os.Symlink(sub.Replace(s["to"]), sub.Replace(l))
			}
		}
		cwd := proj
		if c.Cwd != "" {
			cwd = sub.Replace(c.Cwd)
		}
		e := Env{Cwd: cwd, Home: home, Project: proj, Temp: []string{tmp, "/tmp", "/var/tmp"}, HarnessHome: filepath.Join(home, ".claude", "harness")}
		if inTemp {
			e.Temp = append(e.Temp, root)
		}
		input := sub.Replace(string(c.Input))
		env := func(k string) (string, bool) {
			if k == "HOME" {
				return home, true
			}
			return "", false
		}
		js, err := e.JudgeCall(c.Tool, event.ToolInput{Result: gjson.Parse(input)}, nil, env)
		got := "allow"
		detail := ""
		switch {
		case err != nil:
			got, detail = "deny", err.Error()
		case len(js) > 0:
			got, detail = js[0].Action.String(), js[0].Rule+" "+js[0].Verdict.Path
		}
		n := counts[c.Want]
		n[0]++
		switch {
		case got == c.Want && c.Known != "":
			wrong = append(wrong, fmt.Sprintf("line %d is marked as a known miss (%s) but is now decided as labelled: drop the mark", i+1, c.Known))
			n[1]++
		case got == c.Want:
			n[1]++
		case c.Known != "":
			t.Logf("known miss: line %d want %s got %s (%s) %s", i+1, c.Want, got, c.Known, strings.ReplaceAll(input, root, "<root>"))
		default:
			wrong = append(wrong, fmt.Sprintf("line %d: want %s got %s [%s] %s %s (%s) %s", i+1, c.Want, got, c.Cat, c.Tool, strings.ReplaceAll(input, root, "<root>"), c.Note, strings.ReplaceAll(detail, root, "<root>")))
		}
		counts[c.Want] = n
	}
	sort.Strings(wrong)
	t.Logf("%s: %d cases; per label (right/total): deny %d/%d, ask %d/%d, allow %d/%d", name, len(cases),
		counts["deny"][1], counts["deny"][0], counts["ask"][1], counts["ask"][0], counts["allow"][1], counts["allow"][0])
	if len(wrong) > 0 {
		t.Errorf("%d cases disagree:\n%s", len(wrong), strings.Join(wrong, "\n"))
	}
}

// FuzzResolve: resolution never panics, always gives a clean absolute path, and judging it
// never panics.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"~/.ssh/id_rsa", "../../x", `C:\Users\dev\x`, "/dev/stdout", "a//b/./c/", "$HOME/.bashrc", `proj\..\..\x`, ""} {
		f.Add(s)
	}
	e := Env{Cwd: "/home/dev/proj/sub", Home: "/home/dev", Project: "/home/dev/proj", Temp: []string{"/tmp"}, HarnessHome: "/home/dev/.claude/harness"}
	f.Fuzz(func(t *testing.T, p string) {
		r := e.Resolve(p)
		if !strings.HasPrefix(r, "/") || filepath.Clean(r) != r && !device(r) {
			t.Fatalf("Resolve(%q) = %q", p, r)
		}
		e.Judge(p, &Policy{Deny: []string{"**/*.db"}, Ask: []string{"migrations/**"}})
	})
}

// TestReads runs the read routes of issue 18 (testdata/reads.jsonl): Read, NotebookRead, Grep,
// Glob, Bash and PowerShell commands that print, copy, archive or search files, and MCP tools
// with path arguments, with look-alikes (public keys, templates, names only) beside each.
func TestReads(t *testing.T) { runCorpus(t, "reads", "testdata/reads.jsonl") }

// TestPatch: Codex's apply_patch, every file of the patch judged like a Write.
func TestPatch(t *testing.T) { runCorpus(t, "apply_patch", "testdata/patch.jsonl") }
