package paths

import (
	"fmt"
	"strings"

	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/event"
	"github.com/hookkit/harness/lib/shell"
)

// Write is one path a tool call writes, as the call names it, and how.
type Write struct {
	Path, How string
}

// Writes lists the paths a tool call writes: file_path of Write, Edit and MultiEdit,
// notebook_path of NotebookEdit, every file of an apply_patch (added, updated, deleted, moved
// from and to), and for Bash every redirection and file-writing command the
// shell analysis finds, inside wrappers and nested shells too. Targets only known at run time
// ($VAR, $(...)) are left out: they cannot be judged before they exist.
func (e Env) Writes(tool string, in event.ToolInput, env func(string) (string, bool)) ([]Write, error) {
	switch event.CanonicalTool(tool) {
	case "Write":
		w, err := in.Write()
		return []Write{{w.FilePath, "Write"}}, err
	case "Edit":
		w, err := in.Edit()
		return []Write{{w.FilePath, "Edit"}}, err
	case "MultiEdit":
		w, err := in.MultiEdit()
		out := []Write{{w.FilePath, "MultiEdit"}}
		for _, ed := range w.Edits {
			if ed.FilePath != w.FilePath {
				out = append(out, Write{ed.FilePath, "MultiEdit"})
			}
		}
		return out, err
	case "NotebookEdit":
		w, err := in.NotebookEdit()
		return []Write{{w.NotebookPath, "NotebookEdit"}}, err
	case "apply_patch":
		// Codex's patch tool (droid's ApplyPatch): the files are in the patch text.
		var text string
		for _, k := range []string{"command", "patch", "input"} {
			if v := in.Get(k); v.Exists() {
				text = v.String()
				break
			}
		}
		ops, err := dialect.ParsePatch(text)
		if err != nil {
			return nil, fmt.Errorf("apply_patch: %w", err)
		}
		var out []Write
		for _, op := range ops {
			out = append(out, Write{op.Path, "apply_patch " + op.Kind})
			if op.MoveTo != "" {
				out = append(out, Write{op.MoveTo, "apply_patch move"})
			}
		}
		return out, nil
	case "Bash":
		b, err := in.Bash()
		if err != nil {
			return nil, err
		}
		an, err := shell.Analyze(b.Command, shell.World{Cwd: e.Cwd, Home: e.Home, Project: e.Project, Env: env}, shell.Limits{})
		if err != nil {
			return nil, fmt.Errorf("the command cannot be analysed: %w", err)
		}
		var out []Write
		for _, c := range an.Cmds {
			if c.Remote {
				continue // another machine's files
			}
			for _, t := range c.Writes(e.Home) {
				if strings.Contains(t.Path, shell.Dyn) {
					continue
				}
				out = append(out, Write{t.Path, t.How})
			}
		}
		return out, nil
	}
	return nil, nil
}

// Judged is a write with its verdict.
type Judged struct {
	Write
	Verdict
}

// JudgeCall judges every path a tool call writes; the first of the most severe verdicts leads.
func (e Env) JudgeCall(tool string, in event.ToolInput, pol *Policy, env func(string) (string, bool)) ([]Judged, error) {
	ws, err := e.Writes(tool, in, env)
	if err != nil {
		return nil, err
	}
	var out []Judged
	for _, w := range ws {
		out = append(out, Judged{w, e.Judge(w.Path, pol)})
	}
	for i := 1; i < len(out); i++ {
		if out[i].Action > out[0].Action {
			out[0], out[i] = out[i], out[0]
		}
	}
	return out, nil
}
