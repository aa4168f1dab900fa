package paths

import (
	"os"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/dialect"
	"github.com/hookkit/harness/lib/event"
)

// A client's project settings can switch every hook off, the guards of this session with them:
// Claude Code's and Qoder CLI's disableAllHooks, Qoder's and Gemini CLI's hooksConfig.enabled
// false (each client's declaration, Files.Off). A write through a file tool that would leave one
// of those settings on in any client's project settings file is denied, whatever the tier of the
// file says otherwise (an ask). SecurityValidator's tamper.disable-hooks does the same for the
// shell.

// hookSettings are the project settings files of every client that has a switch for its hooks,
// relative to the project, lower case, with the client's switches.
func hookSettings() map[string]dialect.Files {
	out := map[string]dialect.Files{}
	for _, d := range dialect.All() {
		if len(d.Files.Off) == 0 {
			continue
		}
		for _, rel := range []string{d.Files.Project, d.Files.Local} {
			if rel != "" {
				out[strings.ToLower(strings.ReplaceAll(rel, `\`, "/"))] = d.Files
			}
		}
	}
	return out
}

// HooksOff judges a Write, Edit, MultiEdit or apply_patch that would switch a client's hooks off
// in a project settings file: a deny, and true; false for every other call. The file is judged
// as it would be after the call (an Edit applied to what is there now), read as JSON; a text
// that does not parse as JSON (a fragment, a patch, JSON with comments) switches the hooks off
// when it names a switch at all.
func (e Env) HooksOff(tool string, in event.ToolInput) (Judged, bool) {
	var files map[string]dialect.Files // built on the first file tool's path: a Bash call needs none
	// which is the switches of the client whose settings file p is, when it is one.
	which := func(p string) (dialect.Files, bool) {
		if files == nil {
			files = hookSettings()
		}
		// Wherever the file is: a client started in that folder, a subfolder of the project or
		// another project (cd sub && claude -p ...), reads it as its project's.
		for _, q := range []string{e.lexical(p), e.Resolve(p)} {
			q = strings.ToLower(q)
			for rel, f := range files {
				if strings.HasSuffix(q, "/"+rel) {
					return f, true
				}
			}
		}
		return dialect.Files{}, false
	}
	deny := func(path, how, off string) (Judged, bool) {
		v := Verdict{Path: e.Resolve(path)}.with(hooksOff, "it would set "+off+" in "+path+
			", which switches off every hook of the project, the guards of this session with them")
		return Judged{Access{Path: path, How: how}, v}, true
	}
	switch event.CanonicalTool(tool) {
	case "Write":
		w, err := in.Write()
		if f, ok := which(w.FilePath); ok && err == nil {
			if off := offIn(f, w.Content); off != "" {
				return deny(w.FilePath, "Write", off)
			}
		}
	case "Edit":
		w, err := in.Edit()
		if f, ok := which(w.FilePath); ok && err == nil {
			if off := offIn(f, e.edited(w.FilePath, []event.Edit{w})); off != "" {
				return deny(w.FilePath, "Edit", off)
			}
		}
	case "MultiEdit":
		w, err := in.MultiEdit()
		if f, ok := which(w.FilePath); ok && err == nil {
			if off := offIn(f, e.edited(w.FilePath, w.Edits)); off != "" {
				return deny(w.FilePath, "MultiEdit", off)
			}
		}
	case "apply_patch":
		text := patchText(in)
		ops, err := dialect.ParsePatch(text)
		if err != nil {
			return Judged{}, false // WriteProtector's own judgement says why
		}
		for _, op := range ops {
			for _, p := range []string{op.Path, op.MoveTo} {
				if f, ok := which(p); ok && p != "" {
					if off := offIn(f, added(text)); off != "" {
						return deny(p, "apply_patch "+op.Kind, off)
					}
				}
			}
		}
	}
	return Judged{}, false
}

// edited is a file's text after edits, applied to what is there now (a file not there is
// empty); when an edit's old text is not found, the new texts alone, which the check reads as a
// fragment.
func (e Env) edited(path string, edits []event.Edit) string {
	b, _ := os.ReadFile(e.Resolve(path))
	text := string(b)
	for _, ed := range edits {
		switch {
		case ed.OldString == "" && text == "":
			text = ed.NewString
		case ed.OldString != "" && strings.Contains(text, ed.OldString):
			n := 1
			if ed.ReplaceAll {
				n = -1
			}
			text = strings.Replace(text, ed.OldString, ed.NewString, n)
		default:
			var frag []string
			for _, ed := range edits {
				frag = append(frag, ed.NewString)
			}
			return strings.Join(frag, "\n")
		}
	}
	return text
}

// offIn says which switch a settings text turns off ("" when none): read as JSON when it is,
// else any mention of a switch's key.
func offIn(f dialect.Files, text string) string {
	if gjson.Valid(text) {
		return f.OffIn([]byte(text))
	}
	for _, s := range f.Off {
		key, _, _ := strings.Cut(s.Path, ".")
		if strings.Contains(text, key) {
			return key
		}
	}
	return ""
}

// added is the lines a patch adds, without their +.
func added(patch string) string {
	var b strings.Builder
	for line := range strings.Lines(patch) {
		if rest, ok := strings.CutPrefix(line, "+"); ok {
			b.WriteString(rest)
		}
	}
	return b.String()
}
