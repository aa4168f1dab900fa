package briefing

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hookkit/harness/lib/config"
	"github.com/hookkit/harness/lib/gitstate"
)

// Options is everything a briefing depends on.
type Options struct {
	Project, Home, HarnessHome, Session string
	// Source is SessionStart's source: startup, resume, clear, compact.
	Source string
	// Subagent is set when the session belongs to a subagent (agent_type in the payload).
	Subagent bool
	// ClaudeCode is set when the host is Claude Code (CLAUDECODE=1), which injects the
	// repository snapshot and machine facts itself.
	ClaudeCode bool
	Now        time.Time
	Config     *config.Config
	// Debug receives why a section was left out.
	Debug io.Writer
}

// Section names, in the order they appear.
const (
	Continuity  = "continuity"
	WIP         = "wip"
	Shape       = "shape"
	PromptFiles = "prompt_files"
	Host        = "host"
)

var order = []string{Continuity, WIP, Shape, PromptFiles, Host}

// Defaults: per-section caps in characters, and the whole briefing's cap, well under the
// 10,000 characters Claude Code injects before it moves hook output to a file.
var defaultCaps = map[string]int{Continuity: 2500, WIP: 1500, Shape: 2500, PromptFiles: 4000, Host: 1500}

const (
	defaultTotal      = 8000
	defaultFileCap    = 2000
	defaultTimeoutMS  = 500
	defaultBudgetMS   = 2000
	truncationMarker  = "\n[... truncated by LoadContext]"
	defaultPromptFile = "AGENTS.md"
)

// Build returns the briefing text, "" when every section is empty or off.
func Build(ctx context.Context, o Options) string {
	c := o.Config
	if c == nil {
		c = &config.Config{}
	}
	// One budget for every command, below the hook's deadline: past it, the sections still to
	// come are left out and the ones done are sent.
	ctx, cancel := context.WithTimeout(ctx, time.Duration(c.Int("context.budget_ms", defaultBudgetMS))*time.Millisecond)
	defer cancel()
	b := &builder{o: o, c: c, timeout: time.Duration(c.Int("context.command_timeout_ms", defaultTimeoutMS)) * time.Millisecond}
	allowed := map[string]bool{}
	for _, s := range order {
		allowed[s] = c.Bool("context.sections."+s, s != Host || !o.ClaudeCode)
	}
	if o.Subagent {
		sub := map[string]bool{}
		for _, s := range c.Strings("context.subagent_sections", []string{PromptFiles}) {
			sub[s] = true
		}
		for s := range allowed {
			allowed[s] = allowed[s] && sub[s]
		}
	}
	var parts []string
	for _, s := range order {
		if !allowed[s] {
			continue
		}
		text := strings.TrimSpace(b.section(ctx, s))
		if text == "" {
			continue
		}
		parts = append(parts, Cap(text, c.Int("context.caps."+s, defaultCaps[s])))
	}
	if len(parts) == 0 {
		return ""
	}
	return Cap("# Session briefing (harness LoadContext)\n\n"+strings.Join(parts, "\n\n"), c.Int("context.caps.total", defaultTotal))
}

// Cap cuts text to at most max bytes, marker included, on a rune boundary, with a visible
// marker.
func Cap(text string, max int) string {
	if len(text) <= max {
		return text
	}
	cut := max - len(truncationMarker)
	if cut < 0 {
		cut = 0
	}
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return strings.TrimRight(text[:cut], " \n") + truncationMarker
}

type builder struct {
	o       Options
	c       *config.Config
	timeout time.Duration
}

func (b *builder) section(ctx context.Context, s string) string {
	switch s {
	case Continuity:
		return b.continuity(ctx)
	case WIP:
		return b.wip(ctx)
	case Shape:
		return b.shape(ctx)
	case PromptFiles:
		return b.promptFiles()
	case Host:
		return b.host(ctx)
	}
	return ""
}

// skip says on the debug writer why something was left out.
func (b *builder) skip(section, why string) {
	if b.o.Debug != nil {
		fmt.Fprintf(b.o.Debug, "LoadContext: %s: %s\n", section, why)
	}
}

// run runs a command in the project with its own timeout; its output, trimmed.
func (b *builder) run(ctx context.Context, name string, args ...string) (string, error) {
	return gitstate.Run(ctx, b.o.Project, b.timeout, name, args...)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// clean makes text safe to show: valid UTF-8, no control characters but newlines and tabs.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
			return -1
		}
		return r
	}, s)
}
