package report

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/hookkit/harness/lib/audit"
)

// Credentials the redaction patterns know, as they are written (a password is known by the
// assignment around it), each planted in every place a record keeps text.
var knownCredentials = []struct{ phrase, secret string }{
	{"token ghp_R4nd0mT0k3nV4lu3W1thM1x3dC4s3Ab12Cde", "ghp_R4nd0mT0k3nV4lu3W1thM1x3dC4s3Ab12Cde"},
	{"key AKIA3PMHGI2HBN7K47CC", "AKIA3PMHGI2HBN7K47CC"},
	{"Bearer xoxb-491227095221-5990263885770-5ICy5cdbnClAuZ3cfmgl6FIZ", "xoxb-491227095221-5990263885770-5ICy5cdbnClAuZ3cfmgl6FIZ"},
	{"sk_live_51HqLyjWDarjtT1zdp7dcXGFabcdEFGH1234", "sk_live_51HqLyjWDarjtT1zdp7dcXGFabcdEFGH1234"},
	{"DB_PASSWORD=Serx7gzkZhUDUuGEPV", "Serx7gzkZhUDUuGEPV"},
}

// unknownCredential is in a format no pattern knows (a vendor's licence key): it is stored
// as written and shown as written. The test pins that, so that the page's promise is read for
// what it is: redaction by known patterns, not by guessing.
const unknownCredential = "ACME-7Q4F-9XK2-LM3P-Z8RT"

// Script injections, each where an attacker can put text: a command the model wrote, a file
// name, a project folder's name, a session id, a prompt, a tool's name.
var injections = []string{
	`</script><script>alert(1)</script>`,
	`<img src=x onerror=alert(2)>`,
	`javascript:alert(3)`,
	`"><svg onload=alert(4)>`,
	`</style><script>alert(5)</script>`,
	`<!--<script>alert(6)</script>-->`,
	"{{.HarnessHome}}",
	"\u2028</script \u2029",
	`<a href="https://attacker.example/x">x</a>`,
}

func TestHostileTextStaysText(t *testing.T) {
	home := t.TempDir()
	at := t0
	add := func(r audit.Record) {
		at = at.Add(time.Minute)
		r.Time = at
		if err := audit.Append(home, r); err != nil {
			t.Fatal(err)
		}
	}
	project := "/home/dev/" + injections[1]
	for i, inj := range injections {
		session := "s-" + inj
		cred := knownCredentials[i%len(knownCredentials)].phrase
		add(audit.Record{Project: project, Session: session, Client: "claude", Event: "UserPromptSubmit", Hook: "AuditLog",
			Summary: "prompt " + inj + " " + cred})
		id := "toolu_" + inj
		add(audit.Record{Project: project, Session: session, Client: "claude", Event: "PreToolUse", Hook: "AuditLog", Tool: "Bash" + inj, ToolUseID: id,
			Summary: "curl -H '" + cred + "' " + inj + " && mytool --license=" + unknownCredential})
		add(audit.Record{Project: project, Session: session, Client: "claude", Event: "PreToolUse", Hook: "SecurityValidator", Tool: "Bash" + inj, ToolUseID: id,
			Decision: "deny", Rule: "rule" + inj, Category: "pack" + inj, Radius: "radius" + inj, Reason: "blocked " + inj + " " + cred})
		add(audit.Record{Project: project, Session: session, Client: inj, Event: "PreToolUse", Hook: "AuditLog", Tool: "Read", ToolUseID: id + "2",
			Summary: cred + " " + inj, Error: inj + " " + cred})
	}
	o := week(home)
	o.IncludePrompts = true
	o.Doctor = []Finding{{Check: "unguarded", Status: "warn", Message: "session x in " + injections[0] + " made tool calls"}}
	d, page := build(t, o)
	if d.Total.Calls != 2*len(injections) || d.Total.Blocked != len(injections) {
		t.Fatalf("the records were not all read: %+v", d.Total)
	}

	for _, c := range knownCredentials {
		if strings.Contains(page, c.secret) {
			t.Errorf("the page holds the credential %s…", c.secret[:6])
		}
	}
	if !strings.Contains(page, "--license="+unknownCredential) {
		t.Errorf("the credential in an unknown format is expected on the page as recorded (redaction knows patterns only)")
	}

	// Only the page's own elements and attributes: no handler, no link, no source.
	allowed := map[string]bool{"html": true, "head": true, "meta": true, "title": true, "style": true, "body": true, "header": true,
		"h1": true, "h2": true, "h3": true, "p": true, "code": true, "section": true, "ul": true, "li": true, "div": true, "span": true,
		"table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true, "svg": true, "line": true, "text": true,
		"g": true, "rect": true, "input": true, "footer": true, "strong": true, "br": true, "script": true}
	z := html.NewTokenizer(strings.NewReader(page))
	var scripts, styles []string
	var texts strings.Builder
	inScript, inStyle, scriptType := false, false, ""
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		tok := z.Token()
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			if !allowed[tok.Data] {
				t.Errorf("an element the page does not make: <%s %v>", tok.Data, tok.Attr)
			}
			for _, a := range tok.Attr {
				name := strings.ToLower(a.Key)
				if strings.HasPrefix(name, "on") || name == "href" || name == "src" || name == "style" || name == "action" ||
					name == "formaction" || name == "xlink:href" || strings.Contains(strings.ToLower(a.Val), "javascript:") {
					t.Errorf("<%s> has attribute %s=%q", tok.Data, a.Key, a.Val)
				}
			}
			inScript, inStyle = tok.Data == "script", tok.Data == "style"
			if inScript {
				scriptType = ""
				for _, a := range tok.Attr {
					if a.Key == "type" {
						scriptType = a.Val
					}
				}
			}
		case html.TextToken:
			switch {
			case inScript:
				scripts = append(scripts, scriptType+"\x00"+tok.Data)
			case inStyle:
				styles = append(styles, tok.Data)
			default:
				texts.WriteString(tok.Data)
			}
		case html.EndTagToken:
			inScript, inStyle = false, false
		case html.CommentToken:
			t.Errorf("a comment reached the page: %q", tok.Data)
		}
	}
	if len(scripts) != 2 || len(styles) != 1 || styles[0] != pageCSS {
		t.Fatalf("%d scripts, %d styles: %q", len(scripts), len(styles), scripts)
	}
	data, own := scripts[0], scripts[1]
	if own != "\x00"+pageJS {
		t.Errorf("the second script is not the page's own: %q", own)
	}
	typ, body, _ := strings.Cut(data, "\x00")
	var summary struct {
		Projects []struct{ Name string }
		Clients  []struct{ Name string }
	}
	if typ != "application/json" || json.Unmarshal([]byte(body), &summary) != nil {
		t.Fatalf("the data is not JSON: %s %q", typ, body)
	}
	if strings.Contains(strings.ToLower(body), "</script") || strings.Contains(body, "<") {
		t.Errorf("the JSON holds markup: %q", body)
	}
	if len(summary.Projects) != 1 || summary.Projects[0].Name != project {
		t.Errorf("the data names the project %q, want %q", summary.Projects, project)
	}
	// Every injection is shown, as text.
	text := texts.String()
	for _, inj := range injections {
		if !strings.Contains(text, "rule"+inj) || !strings.Contains(text, "s-"+inj) {
			t.Errorf("injection %q is not shown as text", inj)
		}
	}
	if !strings.Contains(text, "prompt "+injections[0]+" token [REDACTED:github-token]") {
		t.Errorf("the prompt is not shown, redacted")
	}
}
