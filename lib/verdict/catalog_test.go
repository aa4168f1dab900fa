package verdict

import (
	"encoding/json"
	"strings"
	"testing"
)

// The listing aligns its columns, shows a rule without a radius as "-", and its JSON keeps
// every field, the action by name.
func TestWriteCatalog(t *testing.T) {
	es := []Entry{
		{Guard: "SecurityValidator", Pack: "git", ID: "git.reset-hard", Action: Deny, Radius: High, Instead: "git stash"},
		{Guard: "WriteProtector", Pack: "ask", ID: "ask.env", Action: Ask, Instead: "ask"},
	}
	var b strings.Builder
	if err := WriteCatalog(&b, es, false); err != nil {
		t.Fatal(err)
	}
	want := "GUARD              PACK  RULE            ACTION  RADIUS  INSTEAD\n" +
		"SecurityValidator  git   git.reset-hard  deny    high    git stash\n" +
		"WriteProtector     ask   ask.env         ask     -       ask\n"
	if b.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteCatalog(&b, es, true); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]string
	if err := json.Unmarshal([]byte(b.String()), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[1]["guard"] != "WriteProtector" || rows[1]["action"] != "ask" || rows[1]["radius"] != "" || rows[0]["radius"] != "high" {
		t.Errorf("json: %v", rows)
	}
}
