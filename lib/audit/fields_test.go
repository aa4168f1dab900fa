package audit

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// referenceFields reads a line's fields with gjson alone: what ReadFields's one-pass reader
// must agree with on every line.
func referenceFields(line []byte) (Fields, bool) {
	var f Fields
	t := bytes.TrimLeft(line, " \t")
	if len(t) == 0 || t[0] != '{' || !gjson.ValidBytes(line) {
		return f, false
	}
	f.Seq = seqOf(line)
	for i, k := range fieldKeys {
		if v := gjson.GetBytes(line, k); v.Type == gjson.String {
			*f.slot(i) = []byte(v.Str)
		}
	}
	return f, true
}

func sameFields(t *testing.T, line []byte) {
	t.Helper()
	var got Fields
	ok := ReadFields(line, &got)
	want, wantOK := referenceFields(line)
	if ok != wantOK || got.Seq != want.Seq {
		t.Fatalf("%q: ok %v seq %d, want ok %v seq %d", line, ok, got.Seq, wantOK, want.Seq)
	}
	for i, k := range fieldKeys {
		g, w := *got.slot(i), *want.slot(i)
		if (g == nil) != (w == nil) || Text(g) != string(w) {
			t.Fatalf("%q: %s is %q (nil %v), want %q (nil %v)", line, k, Text(g), g == nil, w, w == nil)
		}
	}
}

var fieldLines = []string{
	``, `{}`, `{`, `}`, `[]`, `null`, ` {"seq":1}`, `{"seq":1} `, `{"seq":1}x`, `{"seq":1,}`, `{,"seq":1}`,
	`{"seq":1,"prev":"ab","time":"2026-11-22T01:02:03Z","project":"/p","client":"codex","hook":"AuditLog"}`,
	`{"seq":"1"}`, `{"seq":1.0}`, `{"seq":-3}`, `{"seq":0}`, `{"seq":01}`, `{"seq":1e3}`, `{"seq":9999999999999999999}`,
	`{"seq":2,"seq":3}`, `{"prev":1,"prev":"x"}`, `{"project":"a","project":"b"}`,
	`{"summary":"say \"hi\" \\ \/ \u00e9 \n"}`, `{"summary":"bad \x escape"}`, `{"summary":"ctl ` + "\x01" + `"}`,
	`{"summary":"\u12"}`, `{"su\u006dmary":"escaped key"}`, `{"a":true,"b":false,"c":null,"seq":4}`, `{"a":tru}`,
	`{"a":nul,"seq":1}`, `{"problems":["x","y"],"seq":5,"hook":"G"}`, `{"a":{"b":1},"seq":6}`, `{"seq":7,"x":-}`,
	`{"seq":7,"x":-0.5e+2}`, `{"seq":7,"x":1.}`, `{"seq":7,"x":.5}`, `{"seq": 8}`, `{"time":"é…","seq":9}`,
	"{\"seq\":10,\"summary\":\"\xff\xfe\"}", `{"seq":1`, `{"seq":1,"reason":"unterminated}`,
}

func TestReadFieldsAgreesWithGJSON(t *testing.T) {
	for _, l := range fieldLines {
		sameFields(t, []byte(l))
	}
	r := Record{Seq: 3, Prev: strings.Repeat("ab", 32), Time: time.Date(2026, 11, 22, 1, 2, 3, 0, time.UTC), Project: "/p",
		Session: "s", Event: "PreToolUse", Hook: "SecurityValidator", Client: "some-agent", Tool: "Bash", ToolUseID: "t",
		Summary: "echo '</script>' \"q\" \t tab", Decision: "deny", Rule: "r", Category: "c", Radius: "high", Reason: "why",
		Problems: []string{"p"}}
	sameFields(t, bytes.TrimSuffix(r.Line(), []byte{'\n'}))
	r.Problems = nil
	line := bytes.TrimSuffix(r.Line(), []byte{'\n'})
	sameFields(t, line)
	var f Fields
	if !scanFlat(line, &f) || Text(f.Summary) != Clean(r.Summary, 200) || string(f.Client) != "some-agent" {
		t.Errorf("a record the harness writes is not read in one pass: %q", line)
	}
	if n := testing.AllocsPerRun(100, func() { ReadFields(line, &f) }); n != 0 {
		t.Errorf("ReadFields allocates %v times on a record line", n)
	}
}

func FuzzReadFields(f *testing.F) {
	for _, l := range fieldLines {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) { sameFields(t, line) })
}

// A prev is compared as the text it is: only a lowercase hex SHA-256 can equal a line's hash.
func TestPrevDigest(t *testing.T) {
	line := []byte(`{"seq":1}`)
	h := LineHash(line)
	want := digest{sum: sum256(line), kind: sha}
	if got := prevDigest([]byte(h)); got != want {
		t.Errorf("prevDigest(%s) = %v", h, got)
	}
	for _, p := range []string{strings.ToUpper(h), h[:63], h + "0", h[:62] + "g0", h[:62] + `\u0030`, "x"} {
		if d := prevDigest([]byte(p)); d.kind != other || d == want {
			t.Errorf("prevDigest(%q) = %v, want other text", p, d)
		}
	}
	if a, b := prevDigest([]byte("abc")), prevDigest([]byte("abd")); a == b {
		t.Error("two other texts compare equal")
	}
	if d := prevDigest(nil); d != (digest{}) {
		t.Errorf("no prev: %v", d)
	}
}
