package hook

import (
	"context"
	"testing"
	"time"

	"github.com/hookkit/harness/lib/answer"
	"github.com/hookkit/harness/lib/event"
)

func TestCall(t *testing.T) {
	home, sys := t.TempDir(), t.TempDir()
	var seen []Where
	var env []string
	spec := guardSpec(Closed)
	var recorded []Verdict
	spec.Record = func(v Verdict) { recorded = append(recorded, v) }
	decide := func(ctx context.Context, in event.Input) (answer.Answer, error) {
		seen = append(seen, Locate(ctx, in))
		v, ok := Env(ctx)("HOME")
		env = append(env, v)
		if !ok {
			return nil, nil
		}
		if in.Event() == event.Stop {
			<-ctx.Done() // past the deadline
		}
		return answer.Block("no"), nil
	}
	req := Request{Payload: payload(t, "PreToolUse.json"), Home: home, SystemDir: sys, Project: "/srv/proj", UserHome: "/home/u",
		Env: map[string]string{"HOME": "/home/u"}}
	got := Call(spec, decide, req)
	if got.Code != answer.Blocked || string(got.Stderr) != "G: no\n" || len(got.Stdout) != 0 {
		t.Fatalf("block: got exit %d stdout %q stderr %q", got.Code, got.Stdout, got.Stderr)
	}
	w := seen[0]
	if w.Project != "/srv/proj" || w.Home != "/home/u" || w.HarnessHome != home || w.SystemDir != sys || env[0] != "/home/u" {
		t.Errorf("the call was located at %+v (HOME %q), not where the request says", w, env[0])
	}
	if len(recorded) != 1 || recorded[0].Code != answer.Blocked || recorded[0].Hook != "G" {
		t.Errorf("recorded %+v, want the one block", recorded)
	}

	// The request's deadline, when earlier, ends the call: the closed policy blocks.
	req.Payload, req.Deadline = payload(t, "Stop.json"), time.Now().Add(100*time.Millisecond)
	got = Call(spec, decide, req)
	want := "G: blocked because the hook could not check this call: no decision before the hook's deadline\n"
	if got.Code != answer.Blocked || string(got.Stderr) != want || len(got.Stdout) != 0 {
		t.Errorf("deadline: got exit %d stdout %q stderr %q", got.Code, got.Stdout, got.Stderr)
	}

	// A relative home is refused by the policy, before the payload is read.
	req.Home, req.Deadline = "rel", time.Time{}
	got = Call(spec, decide, req)
	if got.Code != answer.Blocked || string(got.Stderr) != `G: the harness home and system folder must be absolute paths (got "rel", "`+sys+`")`+"\n" {
		t.Errorf("relative home: got exit %d stderr %q", got.Code, got.Stderr)
	}
}
