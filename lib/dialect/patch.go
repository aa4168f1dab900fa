package dialect

import (
	"errors"
	"strings"
)

// PatchOp is one file a patch touches: Codex's apply_patch (and droid's ApplyPatch) send a
// patch text with one section per file instead of a path argument.
type PatchOp struct {
	// Kind is "add", "update" or "delete".
	Kind string
	Path string
	// MoveTo is the new path of an updated file that is moved ("" when it stays).
	MoveTo string
}

// ParsePatch lists the files a patch writes, from its section headers (`*** Add File: p`,
// `*** Update File: p`, `*** Delete File: p`, `*** Move to: p`). Every header line counts,
// wherever it stands (a heredoc wrapper, a missing Begin Patch): a guard had better see a
// write the client would not make than miss one it would. Lines of a section's body start
// with +, - or a space, so they are never taken for headers.
func ParsePatch(text string) ([]PatchOp, error) {
	var ops []PatchOp
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "*** Add File: "):
			ops = append(ops, PatchOp{Kind: "add", Path: strings.TrimSpace(line[len("*** Add File: "):])})
		case strings.HasPrefix(line, "*** Update File: "):
			ops = append(ops, PatchOp{Kind: "update", Path: strings.TrimSpace(line[len("*** Update File: "):])})
		case strings.HasPrefix(line, "*** Delete File: "):
			ops = append(ops, PatchOp{Kind: "delete", Path: strings.TrimSpace(line[len("*** Delete File: "):])})
		case strings.HasPrefix(line, "*** Move to: "):
			if len(ops) == 0 || ops[len(ops)-1].Kind != "update" {
				return nil, errors.New("the patch moves a file outside an Update File section")
			}
			ops[len(ops)-1].MoveTo = strings.TrimSpace(line[len("*** Move to: "):])
		}
	}
	if len(ops) == 0 {
		return nil, errors.New("the patch names no file (no *** Add, Update or Delete File section)")
	}
	for _, op := range ops {
		if op.Path == "" {
			return nil, errors.New("the patch has a section with no file name")
		}
	}
	return ops, nil
}
