package dialect

import (
	"maps"
	"path/filepath"
	"slices"
	"time"

	"github.com/hookkit/harness/lib/event"
)

// Kilo is Kilo Code CLI (@kilocode/cli on npm), built on OpenCode: the same plugin API
// (tool.execute.before and .after), tools and arguments, so the same plugin, in its own folder.
const Kilo Client = "kilo"

func init() { register(81, kilo) }

func kilo() *Dialect {
	d := opencode()
	d.Client, d.Title, d.Tested = Kilo, "Kilo Code CLI", "7.7.7"
	d.Short = "Kilo"
	// Its own tools beyond OpenCode's: the notebook tools (a live VS Code notebook's, by path)
	// and web search; the rest have no Claude Code name.
	d.Tools = maps.Clone(d.Tools)
	d.Tools["notebook_edit"], d.Tools["notebook_read"], d.Tools["websearch"] = "NotebookEdit", "NotebookRead", "WebSearch"
	d.Args = maps.Clone(d.Args)
	d.Args["NotebookEdit"] = map[string]string{"path": "notebook_path"}
	d.Args["NotebookRead"] = map[string]string{"path": "notebook_path"}
	d.Files.Binary, d.Files.Dir = "kilo", filepath.Join(".config", "kilo")
	d.Files.NoProject = "a project's .kilo/plugins runs only while that project is open; install in user scope, which every project gets"
	d.Files.PluginTools = slices.Concat(d.Files.PluginTools, []string{"chart", "generate_image", "kilo_local_recall",
		"kilo_memory_recall", "kilo_memory_save", "notebook_execute", "open_plan", "repo_clone", "repo_overview"})
	d.FromProject = "the same as OpenCode (`.kilo/`)"
	d.Events = names(event.PreToolUse, event.PostToolUse)
	d.DefaultTimeout = 60 * time.Second
	return d
}
