package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// The groups of the sequence test: two on one event, one on another.
const seqBin = "/opt/seq/bin/"

var seqGroups = []Entry{
	{Hook: "SecurityValidator", Event: "PreToolUse", Matcher: "Bash",
		Group: json.RawMessage(`{"matcher":"Bash","hooks":[{"type":"command","command":"` + seqBin + `SecurityValidator","timeout":5}]}`)},
	{Hook: "WriteProtector", Event: "PreToolUse", Matcher: "Write",
		Group: json.RawMessage(`{"matcher":"Write","hooks":[{"type":"command","command":"` + seqBin + `WriteProtector","timeout":5}]}`)},
	{Hook: "AuditLog", Event: "Stop",
		Group: json.RawMessage(`{"hooks":[{"type":"command","command":"` + seqBin + `AuditLog","timeout":5}]}`)},
}

// seqKeys are serve mode's values outside the hooks (install --serve): an allowlist item and
// a secret in env, the file narrowed to 0600 while they are in it.
var seqKeys = []Key{NewKey("allowedHttpHookUrls", "http://127.0.0.1:8765/*"), NewKey("env.HARNESS_SERVE_SECRET", "seq-secret-0123456789")}

// seqState is one run: the file, the harness home, and what the user added to the file.
type seqState struct {
	t         *testing.T
	file      string
	home      string
	orig      []byte // nil: the file did not exist
	userKeys  []string
	userHooks []string
	model     []byte // the original with the user's additions, as JSON
	n         int
	log       []string
}

type seqOp struct {
	name    string
	harness bool // a harness command: the manifest must tell the truth after it
	run     func(s *seqState, r *rand.Rand)
}

var seqOps = []seqOp{
	{"install", true, func(s *seqState, _ *rand.Rand) { s.install(seqGroups) }},
	{"install-fewer", true, func(s *seqState, _ *rand.Rand) { s.install(seqGroups[:2]) }},
	{"install-serve", true, func(s *seqState, _ *rand.Rand) {
		s.installPlan(Plan{File: s.file, Home: s.home, Groups: seqGroups, Keys: seqKeys, Mode: 0o600})
	}},
	{"user-allows-url", false, (*seqState).userAllowsURL},
	{"user-edits-secret", false, (*seqState).userEditSecret},
	{"user-adds-key", false, (*seqState).userAddKey},
	{"user-adds-hook", false, (*seqState).userAddHook},
	{"user-edits-entry", false, (*seqState).userEditEntry},
	{"user-removes-entry", false, (*seqState).userRemoveEntry},
	{"older-manifest", false, (*seqState).olderManifest},
	{"uninstall", true, func(s *seqState, _ *rand.Rand) { s.uninstall(false) }},
	{"uninstall-force", true, func(s *seqState, _ *rand.Rand) { s.uninstall(true) }},
}

// TestSequences runs random sequences of installs, the user's own edits, removals by hand and
// uninstalls on each starting file of the install corpus, and checks after every step that
// nothing the user added is lost and that the manifest tells the truth; after a final
// uninstall --force the file is the original plus the user's additions (byte for byte the
// original when the user added nothing).
func TestSequences(t *testing.T) {
	starts := corpusStarts(t)
	runs, length := 12, 9
	if testing.Short() {
		runs = 4
	}
	for name, orig := range starts {
		t.Run(name, func(t *testing.T) {
			for run := range runs {
				r := rand.New(rand.NewPCG(uint64(run), 7))
				s := newSeqState(t, orig)
				s.install(seqGroups) // sequences start from an install
				s.check(true)
				for range length {
					op := seqOps[r.IntN(len(seqOps))]
					s.log = append(s.log, op.name)
					op.run(s, r)
					s.check(op.harness)
					if t.Failed() {
						return
					}
				}
				s.log = append(s.log, "final uninstall-force")
				s.uninstall(true)
				s.check(true)
				s.final()
				if t.Failed() {
					return
				}
			}
		})
	}
}

// TestSequencesEnumerated runs every sequence of two steps after an install, on a file with
// the user's own hooks, and the sequences reported in the issue on every starting file.
func TestSequencesEnumerated(t *testing.T) {
	starts := corpusStarts(t)
	orig := starts["user-hooks-same-event"]
	if orig == nil {
		t.Fatal("no user-hooks-same-event in the corpus")
	}
	var seqs [][]string
	for _, a := range seqOps {
		for _, b := range seqOps {
			seqs = append(seqs, []string{a.name, b.name})
		}
	}
	for _, seq := range seqs {
		runSeq(t, orig, seq)
	}
	observed := [][]string{
		// uninstall leaves the edited entry; --force then restored the backup, losing the key.
		{"user-adds-key", "user-edits-entry", "uninstall", "uninstall-force"},
		{"user-adds-hook", "user-edits-entry", "uninstall", "uninstall-force"},
		// install again over the user's key, then uninstall: the backup lacks the key.
		{"user-adds-key", "install-fewer", "uninstall"},
		// the entry uninstall left, removed by hand as advised, then uninstall again.
		{"user-edits-entry", "uninstall", "user-removes-entry", "uninstall"},
		{"user-removes-entry", "user-removes-entry", "user-removes-entry", "uninstall"},
		{"user-removes-entry", "install", "uninstall"},
		// the same over a manifest as an installer older than its touched flag wrote it.
		{"user-adds-key", "install-fewer", "older-manifest", "uninstall"},
		{"user-adds-hook", "install", "older-manifest", "uninstall-force"},
	}
	for name, orig := range starts {
		for _, seq := range observed {
			t.Run(name, func(t *testing.T) { runSeq(t, orig, seq) })
		}
	}
}

// runSeq runs the named steps after an install, then the final uninstall --force, checking
// after each.
func runSeq(t *testing.T, orig []byte, seq []string) {
	t.Helper()
	s := newSeqState(t, orig)
	s.install(seqGroups)
	r := rand.New(rand.NewPCG(1, 2))
	for _, name := range seq {
		for _, op := range seqOps {
			if op.name == name {
				s.log = append(s.log, op.name)
				op.run(s, r)
				s.check(op.harness)
			}
		}
	}
	s.log = append(s.log, "final uninstall-force")
	s.uninstall(true)
	s.check(true)
	s.final()
}

func corpusStarts(t *testing.T) map[string][]byte {
	paths, err := filepath.Glob("../../tests/testdata/install_corpus_*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	starts := map[string][]byte{"no-file": nil}
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if f.Name == "orig.json" {
				name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), "install_corpus_"), ".txtar")
				starts[name] = f.Data
			}
		}
	}
	return starts
}

func newSeqState(t *testing.T, orig []byte) *seqState {
	dir := t.TempDir()
	s := &seqState{t: t, file: filepath.Join(dir, "proj", ".claude", "settings.json"), home: filepath.Join(dir, "harness"), orig: orig}
	if orig != nil {
		if err := os.MkdirAll(filepath.Dir(s.file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(s.file, orig, 0o644); err != nil {
			t.Fatal(err)
		}
		s.model = orig
	}
	if len(bytes.TrimSpace(s.model)) == 0 {
		s.model = []byte("{}")
	}
	return s
}

func (s *seqState) read() []byte {
	b, err := os.ReadFile(s.file)
	if err != nil && !os.IsNotExist(err) {
		s.t.Fatal(err)
	}
	return b
}

func (s *seqState) write(b []byte) {
	if err := os.MkdirAll(filepath.Dir(s.file), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(s.file, b, 0o644); err != nil {
		s.t.Fatal(err)
	}
}

func (s *seqState) fatalf(format string, args ...any) {
	s.t.Helper()
	s.t.Fatalf("after %s:\n"+format+"\nfile:\n%s", append([]any{strings.Join(s.log, ", ")}, append(args, s.read())...)...)
}

func (s *seqState) install(groups []Entry) {
	s.installPlan(Plan{File: s.file, Home: s.home, Groups: groups})
}

func (s *seqState) installPlan(p Plan) {
	if _, err := Install(p); err != nil {
		s.fatalf("install: %v", err)
	}
}

// userAllowsURL adds an allowlist item of the user's own.
func (s *seqState) userAllowsURL(_ *rand.Rand) {
	s.n++
	u := fmt.Sprintf("https://hooks%d.example/*", s.n)
	s.userHooks = append(s.userHooks, u)
	s.userSet("allowedHttpHookUrls.-1", `"`+u+`"`, true)
}

// userEditSecret changes serve mode's secret where the install put it (a value the user then
// owns only as an edit of the harness's: uninstall --force takes it).
func (s *seqState) userEditSecret(r *rand.Rand) {
	if !gjson.GetBytes(s.read(), "env.HARNESS_SERVE_SECRET").Exists() {
		return
	}
	s.userSet("env.HARNESS_SERVE_SECRET", fmt.Sprintf(`"edited-%d"`, r.IntN(1000)), false)
}

func (s *seqState) uninstall(force bool) {
	m, err := LoadManifest(s.home)
	if err != nil {
		s.fatalf("%v", err)
	}
	if m.Find(s.file) == nil {
		return // the CLI says "nothing is installed"
	}
	if _, err := Uninstall(s.home, s.file, force, false); err != nil {
		s.fatalf("uninstall: %v", err)
	}
}

// set applies one of the user's edits with sjson, to the file and to the model.
func (s *seqState) userSet(path, value string, model bool) {
	raw := s.read()
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}\n")
	}
	out, err := sjson.SetRawBytes(raw, path, []byte(value))
	if err != nil {
		s.t.Fatal(err)
	}
	s.write(out)
	if model {
		if s.model, err = sjson.SetRawBytes(s.model, path, []byte(value)); err != nil {
			s.t.Fatal(err)
		}
	}
}

func (s *seqState) userAddKey(_ *rand.Rand) {
	s.n++
	k := fmt.Sprintf("user%d", s.n)
	s.userKeys = append(s.userKeys, k)
	s.userSet(k, fmt.Sprint(s.n), true)
}

func (s *seqState) userAddHook(r *rand.Rand) {
	s.n++
	cmd := fmt.Sprintf("user-hook-%d", s.n)
	s.userHooks = append(s.userHooks, cmd)
	ev := []string{"PreToolUse", "Stop"}[r.IntN(2)]
	s.userSet("hooks."+ev+".-1", `{"matcher":"Bash","hooks":[{"type":"command","command":"`+cmd+`"}]}`, true)
}

// ours lists the groups in the file that run a harness binary.
func (s *seqState) ours() (out [][2]string) {
	gjson.GetBytes(s.read(), "hooks").ForEach(func(ev, groups gjson.Result) bool {
		groups.ForEach(func(i, g gjson.Result) bool {
			if strings.HasPrefix(g.Get("hooks.0.command").Str, seqBin) {
				out = append(out, [2]string{ev.Str, i.String()})
			}
			return true
		})
		return true
	})
	return out
}

func (s *seqState) userEditEntry(r *rand.Rand) {
	ours := s.ours()
	if len(ours) == 0 {
		return
	}
	g := ours[r.IntN(len(ours))]
	s.userSet("hooks."+g[0]+"."+g[1]+".hooks.0.timeout", fmt.Sprint(100+r.IntN(100)), false)
}

func (s *seqState) userRemoveEntry(r *rand.Rand) {
	ours := s.ours()
	if len(ours) == 0 {
		return
	}
	g := ours[r.IntN(len(ours))]
	var i int
	fmt.Sscan(g[1], &i)
	out, err := RemoveGroup(s.read(), g[0], i, nil) // as an editor would: the group, nothing else
	if err != nil {
		s.t.Fatal(err)
	}
	s.write(out)
}

// check asserts that every addition of the user's is in the file and, after a harness
// command, that the manifest records exactly the harness's groups in the file.
func (s *seqState) check(harness bool) {
	s.t.Helper()
	raw := s.read()
	for _, k := range s.userKeys {
		if !gjson.GetBytes(raw, k).Exists() {
			s.fatalf("the user's key %s is gone", k)
		}
	}
	for _, h := range s.userHooks {
		if !bytes.Contains(raw, []byte(`"`+h+`"`)) {
			s.fatalf("the user's hook %s is gone", h)
		}
	}
	if !harness {
		return
	}
	m, err := LoadManifest(s.home)
	if err != nil {
		s.fatalf("%v", err)
	}
	rec := m.Find(s.file)
	ours := s.ours()
	if rec == nil {
		if len(ours) > 0 {
			s.fatalf("no record, yet %d harness groups in the file", len(ours))
		}
		return
	}
	if len(rec.Entries) != len(ours) {
		s.fatalf("the manifest records %d entries, the file holds %d harness groups", len(rec.Entries), len(ours))
	}
	for _, e := range rec.Entries {
		if Locate(raw, e) < 0 {
			s.fatalf("the manifest records %s on %s, which is not in the file", e.Hook, e.Event)
		}
	}
	for _, k := range rec.Keys {
		if i, _ := findKey(raw, k); i < 0 {
			s.fatalf("the manifest records %s, which is not in the file", k.Key)
		}
	}
	if len(rec.Keys) == 0 {
		for _, k := range seqKeys {
			if _, same := findKey(raw, k); same && (k.Key != "allowedHttpHookUrls" || !strings.Contains(string(s.model), k.Value)) {
				s.fatalf("%s is in the file, and the manifest does not record it", k.Key)
			}
		}
	}
	if Hash(raw) != rec.After && rec.restorable(raw) {
		s.fatalf("restorable although the file is not as the installer wrote it")
	}
}

// final asserts what the last uninstall --force left: the original plus the user's additions.
func (s *seqState) final() {
	s.t.Helper()
	raw := s.read()
	if st, err := os.Stat(s.file); err == nil && st.Mode().Perm() != 0o644 {
		s.fatalf("the file's mode is %o, not its own 644", st.Mode().Perm())
	}
	if _, err := os.Stat(s.file); len(s.userKeys)+len(s.userHooks) == 0 {
		switch {
		case s.orig == nil && err == nil:
			s.fatalf("the install created the file; it is still there")
		case s.orig != nil && !bytes.Equal(raw, s.orig):
			s.fatalf("the file is not its original bytes:\n%s", s.orig)
		}
		if s.orig == nil {
			if _, err := os.Stat(filepath.Dir(s.file)); err == nil {
				s.fatalf("the folder the install created is still there")
			}
		}
		return
	}
	var got, want any
	if err := json.Unmarshal(raw, &got); err != nil {
		s.fatalf("not JSON: %v", err)
	}
	if err := json.Unmarshal(s.model, &want); err != nil {
		s.t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		s.fatalf("not the original plus the user's additions; want\n%s", s.model)
	}
	m, err := LoadManifest(s.home)
	if err != nil || m.Find(s.file) != nil || len(m.Dirs) > 0 {
		s.fatalf("the manifest still records something: %v %+v", err, m)
	}
}

// olderManifest rewrites the manifest as an installer older than ManifestFormat wrote it: no
// format, and no record of who else touched a file.
func (s *seqState) olderManifest(_ *rand.Rand) {
	p := ManifestPath(s.home)
	b, err := os.ReadFile(p)
	if err != nil {
		return // nothing installed
	}
	b, _ = sjson.DeleteBytes(b, "format")
	for i := range gjson.GetBytes(b, "files.#").Int() {
		b, _ = sjson.DeleteBytes(b, fmt.Sprintf("files.%d.touched", i))
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		s.t.Fatal(err)
	}
}
