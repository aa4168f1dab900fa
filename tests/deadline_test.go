package tests

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A hook woken at its deadline (by its context) races the runtime's own answer there: whether
// it gives up with an error or still answers, exactly one answer is written, and it is the
// runtime's, every time.
func TestOneAnswerAtTheDeadline(t *testing.T) {
	for i := range 300 {
		prompt := []string{"hang-error", "hang"}[i%2]
		payload := `{"session_id":"s","cwd":"/tmp","hook_event_name":"UserPromptSubmit","prompt":"` + prompt + `"}`
		cmd := exec.Command(filepath.Join(binDir, "TestRecorder"), "--deadline=5ms", "--home="+t.TempDir())
		cmd.Stdin = strings.NewReader(payload)
		cmd.Env = []string{}
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != 1 || out.Len() != 0 || strings.Count(errb.String(), "TestRecorder: skipped: ") != 1 || strings.Count(errb.String(), "\n") != 1 {
			t.Fatalf("run %d (%s): exit %d, stdout %q, stderr %q", i, prompt, code, out.String(), errb.String())
		}
	}
}
