package verdict

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Entry is one rule as a guard declares it: the guard, its pack (or tier), id, action, radius
// and advice.
type Entry struct {
	Guard, Pack, ID string
	Action          Action
	Radius          Radius
	Instead         string
}

// WriteCatalog prints rules as aligned text, one a line, or as a JSON array.
func WriteCatalog(w io.Writer, es []Entry, asJSON bool) error {
	if asJSON {
		type row struct {
			Guard   string `json:"guard"`
			Pack    string `json:"pack"`
			ID      string `json:"id"`
			Action  string `json:"action"`
			Radius  Radius `json:"radius"`
			Instead string `json:"instead"`
		}
		rows := make([]row, len(es))
		for i, e := range es {
			rows[i] = row{e.Guard, e.Pack, e.ID, e.Action.String(), e.Radius, e.Instead}
		}
		b, err := json.MarshalIndent(rows, "", "  ")
		if err != nil {
			return fmt.Errorf("encoding the rule catalog: %w", err)
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}
	gw, pw, iw := len("GUARD"), len("PACK"), len("RULE")
	for _, e := range es {
		gw, pw, iw = max(gw, len(e.Guard)), max(pw, len(e.Pack)), max(iw, len(e.ID))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-*s  %-*s  %-*s  %-6s  %-6s  %s\n", gw, "GUARD", pw, "PACK", iw, "RULE", "ACTION", "RADIUS", "INSTEAD")
	for _, e := range es {
		radius := string(e.Radius)
		if radius == "" {
			radius = "-"
		}
		fmt.Fprintf(&b, "%-*s  %-*s  %-*s  %-6s  %-6s  %s\n", gw, e.Guard, pw, e.Pack, iw, e.ID, e.Action, radius, e.Instead)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
