package settings

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// docker-agent keeps an agent's hooks in the agent file the user owns (agents: <name>: hooks:).
// The installer inserts one hooks block into the named agent, laid out at the agent's own
// indentation, and never re-serialises the file: every other byte stays, and uninstall takes
// exactly that block out. A YAML parser checks the file before (a file that does not parse is
// refused, naming the line) and after: the result must decode to the file before plus exactly
// that hooks key, or nothing is written. An agent that already has hooks of its own is refused:
// merging two blocks would be a guess.

func decodeYAML(path string, data []byte) (*yaml.Node, any, error) {
	var n yaml.Node
	var v any
	err := yaml.Unmarshal(data, &n)
	if err == nil {
		err = yaml.Unmarshal(data, &v)
	}
	if err != nil {
		line := 1
		if _, rest, ok := strings.Cut(err.Error(), "line "); ok {
			end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
			if end < 0 {
				end = len(rest)
			}
			if n, err := strconv.Atoi(rest[:end]); err == nil {
				line = n
			}
		}
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		msg = strings.TrimPrefix(msg, fmt.Sprintf("line %d: ", line))
		return nil, nil, &SyntaxError{Path: path, Format: "YAML", Line: line, Col: 1, Msg: msg}
	}
	return &n, v, nil
}

// mapValue returns the value node of key in mapping m, and the key node after it (nil at the end).
func mapValue(m *yaml.Node, key string) (val, next *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			if i+2 < len(m.Content) {
				next = m.Content[i+2]
			}
			return m.Content[i+1], next
		}
	}
	return nil, nil
}

// yamlBlock is a YAMLBlock file: an agent file of docker-agent's, into one agent of which the
// installer puts its hooks block.
type yamlBlock struct{}

// Read reads the file (a missing one is not an error).
func (yamlBlock) Read(path string) (*File, error) {
	f := &File{Path: path, Mode: 0o644}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return f, nil
	case err != nil:
		return nil, err
	}
	if st, err := os.Stat(path); err == nil {
		f.Mode = st.Mode().Perm()
	}
	f.Raw, f.Exists = b, true
	return f, nil
}

func (yamlBlock) Verify(path string, raw []byte) error {
	_, _, err := decodeYAML(path, raw)
	return err
}

// Remove takes the block out of its agent.
func (yamlBlock) Remove(f *File, rec *Record, _ bool) (Edit, error) {
	return blockRemove(f, rec, func(raw []byte, block string) []byte { return bytes.Replace(raw, []byte(block), nil, 1) })
}

func (yamlBlock) Find(f *File, rec *Record) ([]Problem, []Entry) { return blockFind(f, rec) }

// Add puts p.Block (a hooks: block rendered at indentation zero) into agent p.Agent (root
// when empty) of the agent file, in place of the block of an earlier install.
func (yamlBlock) Add(f *File, rec *Record, p Plan) (Edit, error) {
	e := Edit{Entries: p.Groups}
	agent, block := p.Agent, p.Block
	if agent == "" {
		agent = "root"
	}
	if !f.Exists {
		return e, fmt.Errorf("%s does not exist: %s's hooks go into an agent file of yours", p.File, p.Client)
	}
	raw := f.Raw
	// An earlier install's block is taken out first; the same block going back in is no change.
	var removed []Change
	if rec != nil && rec.Block != "" && bytes.Contains(raw, []byte(rec.Block)) {
		raw = bytes.Replace(raw, []byte(rec.Block), nil, 1)
		for _, r := range rec.Entries {
			removed = append(removed, Change{"remove", r.Hook, r.Event, r.Matcher})
		}
	}
	out, want, err := insertAgentHooks(p.File, raw, p.Client, agent, block)
	if err != nil {
		return e, err
	}
	e.Raw, e.Block = out, want
	if rec != nil && rec.Block == want && bytes.Equal(out, f.Raw) {
		for _, g := range p.Groups {
			e.Changes = append(e.Changes, Change{"keep", g.Hook, g.Event, g.Matcher})
		}
		return e, nil
	}
	e.Changes = removed
	for _, g := range p.Groups {
		e.Changes = append(e.Changes, Change{"add", g.Hook, g.Event, g.Matcher})
	}
	return e, nil
}

// insertAgentHooks returns raw with block inserted as the agent's hooks key, and the exact text
// inserted.
func insertAgentHooks(path string, raw []byte, client, agent, block string) ([]byte, string, error) {
	doc, before, err := decodeYAML(path, raw)
	if err != nil {
		return nil, "", err
	}
	if len(doc.Content) == 0 {
		return nil, "", fmt.Errorf("%s is empty: it defines no agent", path)
	}
	root := doc.Content[0]
	agents, afterAgents := mapValue(root, "agents")
	if agents == nil || agents.Kind != yaml.MappingNode {
		return nil, "", fmt.Errorf("%s has no agents: mapping", path)
	}
	node, afterAgent := mapValue(agents, agent)
	if node == nil || node.Kind != yaml.MappingNode || len(node.Content) == 0 {
		return nil, "", fmt.Errorf("%s has no agent %q (--agent names it)", path, agent)
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		if k := node.Content[i]; k.Value == "hooks" {
			return nil, "", fmt.Errorf("%s: agent %q has hooks of its own (line %d); merging two hooks blocks would be a guess: "+
				"add harness's by hand (harness install --client %s prints it) or remove them; nothing was written", path, agent, k.Line, client)
		}
	}
	nl := newline(raw)
	indent := strings.Repeat(" ", node.Content[0].Column-1)
	var b strings.Builder
	for line := range strings.Lines(block) {
		b.WriteString(indent + strings.TrimSuffix(line, "\n") + nl)
	}
	text := b.String()
	// The agent's mapping ends where the next agent, or the next top-level key, begins; the
	// comments and blank lines right before that key stay with it.
	next := afterAgent
	if next == nil {
		next = afterAgents
	}
	lines := bytes.SplitAfter(raw, []byte("\n"))
	at := len(lines)
	if next != nil {
		at = next.Line - 1
		for at > 0 {
			t := bytes.TrimSpace(lines[at-1])
			if len(t) != 0 && t[0] != '#' {
				break
			}
			at--
		}
	}
	var out []byte
	for _, l := range lines[:at] {
		out = append(out, l...)
	}
	if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, nl...)
		text = nl + text // the file had no final newline: it is added with the block
	}
	out = append(out, b.String()...)
	for _, l := range lines[at:] {
		out = append(out, l...)
	}
	// Check: the same document plus exactly this hooks key.
	_, after, err := decodeYAML(path, out)
	if err != nil {
		return nil, "", fmt.Errorf("%s: adding the hooks would break it (%v); nothing was written", path, err)
	}
	var want any
	if err := yaml.Unmarshal([]byte(block), &want); err != nil {
		return nil, "", err
	}
	got := agentOf(after, agent)
	if got == nil || !reflect.DeepEqual(got["hooks"], want.(map[string]any)["hooks"]) {
		return nil, "", fmt.Errorf("%s: the hooks block does not read back as written under agent %q; nothing was written", path, agent)
	}
	delete(got, "hooks")
	if !reflect.DeepEqual(before, after) {
		return nil, "", fmt.Errorf("%s: the hooks cannot be added without changing something else; nothing was written", path)
	}
	return out, text, nil
}

func agentOf(doc any, agent string) map[string]any {
	root, _ := doc.(map[string]any)
	agents, _ := root["agents"].(map[string]any)
	a, _ := agents[agent].(map[string]any)
	return a
}

// DecodeYAML decodes a YAML file, a syntax error naming its line.
func DecodeYAML(path string, data []byte) (any, error) {
	_, v, err := decodeYAML(path, data)
	return v, err
}
