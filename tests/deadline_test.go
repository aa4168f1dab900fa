package tests

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A hook that gives up at its deadline races the runtime's own answer there; exactly one of
// them is written, every time.
func TestOneAnswerAtTheDeadline(t *testing.T) {
	payload := `{"session_id":"s","cwd":"/tmp","hook_event_name":"UserPromptSubmit","prompt":"hang-error"}`
	for i := range 150 {
		cmd := exec.Command(filepath.Join(binDir, "TestRecorder"))
		cmd.Stdin = strings.NewReader(payload)
		cmd.Env = []string{"HARNESS_DEADLINE=5ms", "HARNESS_HOME=" + t.TempDir()}
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != 1 || out.Len() != 0 || strings.Count(errb.String(), "TestRecorder: skipped: ") != 1 || strings.Count(errb.String(), "\n") != 1 {
			t.Fatalf("run %d: exit %d, stdout %q, stderr %q", i, code, out.String(), errb.String())
		}
	}
}
