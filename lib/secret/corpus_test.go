package secret

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

type secretCase struct {
	Want  string   `json:"want"`
	Kinds []string `json:"kinds"`
	Text  string   `json:"text"`
	Note  string   `json:"note"`
	Cat   string   `json:"cat"`
}

// TestCorpus runs the labelled corpus: every secret found with exactly its kinds, every
// look-alike clean.
func TestCorpus(t *testing.T) { runCorpus(t, "secret corpus", "testdata/corpus.jsonl") }

// TestHoldout runs a holdout (testdata/holdout.jsonl) written by a separate session from the
// README and the issue alone, without sight of the rules or the corpus (freshly generated
// values, 127 texts with secrets, 104 look-alikes). First run: recall 125/127, no false
// positive, 3 kinds wrong; fixed since: an AWS secret passed as a function argument
// (Setenv("AWS_SECRET_ACCESS_KEY", "...")), Go's := and a name that goes on after the keyword
// (SECRET_KEY, secretKey, token_value). Relabelled since: the SendGrid, Vault, npm and PyPI
// secrets, labelled as assignments while their vendors had no rule, carry their vendors' kinds.
func TestHoldout(t *testing.T) { runCorpus(t, "secret holdout", "testdata/holdout.jsonl") }

// TestHoldout2 runs a second holdout (testdata/holdout2.jsonl) of hard cases (secrets inside
// configs, code, commands, logs and long texts; look-alikes such as lockfile hashes, digests,
// public keys, redacted and documented example values), written by a separate session from
// the README and the issue alone. First run: recall 116/118, false positives 3/121, 5 kinds
// wrong. Fixed since: GitLab's other token prefixes (glrt-, gldt-, ...), Slack app-level tokens
// (xapp-), a Kubernetes service-account JWT longer than the window, aws-secret-access-key with
// hyphens, SECRET_KEY_BASE, code that names where a secret is kept (process.env.X,
// settings.X) and template fields in URLs ({DB_PASSWORD}) taken for values. Relabelled since:
// the npm, PyPI, Vault, Twilio and SendGrid secrets carry their vendors' kinds.
func TestHoldout2(t *testing.T) { runCorpus(t, "secret holdout2", "testdata/holdout2.jsonl") }

func runCorpus(t *testing.T, name, file string) {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var wrong []string
	secrets, found, clean, flagged, n := 0, 0, 0, 0, 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		n++
		var c secretCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		got := kindStrings(Kinds(Scan(c.Text)))
		sort.Strings(got)
		sort.Strings(c.Kinds)
		if c.Want == "secret" {
			secrets++
			if len(got) > 0 {
				found++
			}
		} else {
			clean++
			if len(got) > 0 {
				flagged++
			}
		}
		if strings.Join(got, ",") != strings.Join(c.Kinds, ",") {
			wrong = append(wrong, fmt.Sprintf("line %d: want %v got %v (%s) %.160q", n, c.Kinds, got, c.Note, c.Text))
		}
	}
	t.Logf("%s: %d cases; recall %d/%d, false positives %d/%d", name, n, found, secrets, flagged, clean)
	if len(wrong) > 0 {
		t.Errorf("%d cases disagree:\n%s", len(wrong), strings.Join(wrong, "\n"))
	}
}

// TestHoldout3 runs a third holdout (testdata/holdout3.jsonl): secrets as they appear in what an
// agent reads and writes (CI logs, kubectl and docker output, curl -v, env dumps, terraform
// state, git diffs, configs in many formats, code), beside look-alikes (digests, hashes of
// passwords, encrypted values, references to secrets), by a separate session from the README
// and the issue alone. First run: recall 116/120, false positives 5/126, 1 kind wrong. Fixed
// since: a PEM key encoded again in base64 (kubeconfig's client-key-data), HTTP Basic
// credentials, PHP's define('DB_PASSWORD', ...), a generated value in braces, terraform's
// secret_key beside an access key ID (AWS's kind), and as look-alikes encrypted_ and hashed_
// names, continuation tokens, a UUID client token, "token kid=..." in a log line. Relabelled
// since: the npm, PyPI, Twilio, SendGrid and Vault secrets carry their vendors' kinds.
func TestHoldout3(t *testing.T) { runCorpus(t, "secret holdout3", "testdata/holdout3.jsonl") }

// TestCorpusInLongText runs the corpus's texts again behind 20 KB of prose: a long text takes
// the shortcut that skips keywords it cannot hold, which must find the same.
func TestCorpusInLongText(t *testing.T) {
	b, err := os.ReadFile("testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	filler := strings.Repeat("The build uses token-based auth; see docs/auth.md for the details.\n", 20<<10/66)
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var c secretCase
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		short := kindStrings(Kinds(Scan(c.Text)))
		long := kindStrings(Kinds(Scan(filler + c.Text)))
		if strings.Join(short, ",") != strings.Join(long, ",") {
			t.Errorf("line %d: %v alone, %v after the filler", i+1, short, long)
		}
	}
}

// TestHoldout4 runs a fourth holdout (testdata/holdout4.jsonl), written by a separate session
// from the README and the SecretGuard section of docs/hooks.md alone, after the issue
// "SecretGuard and WriteProtector on what fresh suites find": about thirty formats, literal
// passwords in commands, credentials by position and disguised ones, beside look-alikes. Its
// labels say secret or clean, not which kind (the kinds are the rules' own names): it scores
// what SecretGuard decides, a text blocked or not. A case marked known is reported, not failed.
func TestHoldout4(t *testing.T) { runRecall(t, "secret holdout4", "testdata/holdout4.jsonl") }

// runRecall scores a labelled file by what is found, whatever its kind: recall over the
// secrets, false positives over the clean texts; it fails on every disagreement not marked known.
func runRecall(t *testing.T, name, file string) {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var wrong []string
	secrets, found, clean, flagged := 0, 0, 0, 0
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var c struct {
			secretCase
			Known string `json:"known"`
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("%s line %d: %v", file, i+1, err)
		}
		got := len(Scan(c.Text)) > 0
		if c.Want == "secret" {
			secrets++
			if got {
				found++
			}
		} else {
			clean++
			if got {
				flagged++
			}
		}
		switch {
		case got == (c.Want == "secret") && c.Known != "":
			t.Errorf("line %d is marked as a known miss (%s) but is now decided as labelled: drop the mark", i+1, c.Known)
		case got != (c.Want == "secret") && c.Known != "":
			t.Logf("known miss: line %d want %s (%s) %.120q", i+1, c.Want, c.Known, c.Text)
		case got != (c.Want == "secret"):
			wrong = append(wrong, fmt.Sprintf("line %d: want %s, found %v [%s] (%s) %.160q", i+1, c.Want, kindStrings(Kinds(Scan(c.Text))), c.Cat, c.Note, c.Text))
		}
	}
	t.Logf("%s: %d cases; recall %d/%d, false positives %d/%d", name, secrets+clean, found, secrets, flagged, clean)
	if len(wrong) > 0 {
		t.Errorf("%d cases disagree:\n%s", len(wrong), strings.Join(wrong, "\n"))
	}
}

// TestHoldout5 runs the second holdout of that issue (testdata/holdout5.jsonl), written by a
// separate session from the same pages after its changes, to see whether they generalise: a
// third of its credentials are the kinds spelled otherwise, the rest other providers.
func TestHoldout5(t *testing.T) { runRecall(t, "secret holdout5", "testdata/holdout5.jsonl") }

// TestHoldout6 runs a third (testdata/holdout6.jsonl), written from the same pages after the
// fixes the first two found, as the measure of whether they generalise.
func TestHoldout6(t *testing.T) { runRecall(t, "secret holdout6", "testdata/holdout6.jsonl") }

// TestHoldout7 runs a fourth (testdata/holdout7.jsonl), written from the README and the issue
// alone (not the rule list) after every fix the others found: the measure the target
// is read on.
func TestHoldout7(t *testing.T) { runRecall(t, "secret holdout7", "testdata/holdout7.jsonl") }

// TestHoldout8 runs a fifth (testdata/holdout8.jsonl), written from the README and the issue
// alone after the fixes the fourth found: what developers paste and run in a week, weighted by
// how common it is.
func TestHoldout8(t *testing.T) { runRecall(t, "secret holdout8", "testdata/holdout8.jsonl") }

// TestHoldout9 runs a sixth (testdata/holdout9.jsonl), written from the README and the issue
// alone at the end of the session that fixed the fifth's misses.
func TestHoldout9(t *testing.T) { runRecall(t, "secret holdout9", "testdata/holdout9.jsonl") }

// TestHoldout10 runs a seventh (testdata/holdout10.jsonl, 306 cases), written from the README,
// the docs and the issue alone after holdout9's fixes: about forty formats and their disguises.
func TestHoldout10(t *testing.T) { runRecall(t, "secret holdout10", "testdata/holdout10.jsonl") }
