package shell

import (
	"errors"
	"fmt"
	"path"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// World is what the analysis knows of where a command runs.
type World struct {
	// Cwd is the directory the command starts in (the payload's cwd).
	Cwd string
	// Home is the user's home directory; Project the project root (CLAUDE_PROJECT_DIR).
	Home, Project string
	// Env looks up variables the command did not set itself; nil means none are known.
	Env func(string) (string, bool)
	// OS is the operating system the command runs on, as runtime.GOOS names it ("linux",
	// "darwin", "windows"); empty means this one. It says how paths are compared (Canon).
	OS string
}

// GOOS is the operating system the command runs on: OS, or this one's.
func (w World) GOOS() string {
	if w.OS != "" {
		return w.OS
	}
	return runtime.GOOS
}

// Limits bound the analysis, so a pathological command costs milliseconds, not seconds.
type Limits struct {
	// MaxBytes caps the command text (default 256 KiB).
	MaxBytes int
	// MaxDepth caps nested shells: bash -c, eval, su -c, interpreters' system() (default 8).
	MaxDepth int
	// MaxCmds caps the commands analysed (default 4096).
	MaxCmds int
}

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = 256 << 10
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = 8
	}
	if l.MaxCmds <= 0 {
		l.MaxCmds = 4096
	}
	return l
}

// LimitError says the command could not be analysed in full; a guard must not allow it.
type LimitError struct{ Reason string }

func (e *LimitError) Error() string { return e.Reason }

// Cmd is one simple command that would run, after unwrapping and normalising.
type Cmd struct {
	// Name is the program as it will be found: the base name of the expanded first word
	// ("/bin/rm", "\rm" and "r''m" are all "rm").
	Name string
	// Prog is the first word as expanded.
	Prog string
	// Args are the expanded arguments after the program. A Dyn byte marks a run-time value.
	Args []string
	// Dir is the directory it runs in, with cd, pushd, git -C and env -C applied.
	Dir string
	// Env holds NAME=value assignments given to this command only.
	Env []string
	// GitConfig are the KEY=VALUE settings a git command runs with besides its config files:
	// git -c, GIT_CONFIG_COUNT/KEY_n/VALUE_n and GIT_CONFIG_PARAMETERS.
	GitConfig []string
	// Via lists the wrappers and nestings it was found through, outermost first
	// ("sudo", "bash -c", "xargs", "find -exec", "python -c", "ssh", ...).
	Via []string
	// Stdin is what feeds the command's standard input.
	Stdin *Input
	// Redirs are its redirections, with targets resolved to absolute paths.
	Redirs []Redir
	// Code is the program text of an interpreter one-liner or script fed to an interpreter.
	Code string
	// Runs are the commands whose output this command executes as code: piped into a shell,
	// $(...) given to sh -c or eval, <(...) given to bash or source.
	Runs []*Cmd
	// ArgsFrom are the commands whose output is substituted into the arguments ($(...)).
	ArgsFrom []*Cmd
	// FromArg[i] are the ones substituted into Args[i] (nil when no argument has any).
	FromArg [][]*Cmd
	// Remote is set for commands run on another machine (ssh) or in a container (docker exec).
	Remote bool
	// Mounts are the host directories bound into the container the command runs in (docker
	// run -v): a path under one of them is that host path.
	Mounts []Mount
	// Fresh is set for commands in a new container (docker run): a path under none of its
	// mounts is the container's own, gone when it exits.
	Fresh bool
	// Unparsed is set when text this command runs as shell (bash -c, eval) does not parse.
	Unparsed bool
	// PS is set for a PowerShell statement (AnalyzePowerShell): Name is its cmdlet, Text the
	// statement. Programs it runs are Bash-analysed Cmds of their own, without PS.
	PS bool
	// PSIn is what the previous stage of a PowerShell pipeline hands this one: a path
	// pattern (tree:PATH when it reaches into subfolders) or process:NAME; "" when unknown.
	PSIn string
	// Unread says why code this command runs cannot be read: PowerShell's Invoke-Expression
	// of a variable, a script block that does not parse, an -EncodedCommand that does not
	// decode. A guard must not take such a command as harmless.
	Unread string
	// Text is the source of the statement it came from, for explanations.
	Text string
}

// Dynamic reports whether the program name itself is only known at run time.
func (c *Cmd) Dynamic() bool { return strings.Contains(c.Prog, Dyn) || c.Name == "" }

// Mount is a host directory seen at another path inside a container; a read-only one can be
// read through, never changed.
type Mount struct {
	Host, Container string
	ReadOnly        bool
}

// HostPath is the host path a resolved path inside the command's container stands for when
// written to, or p itself when it is not under a writable bind mount (mounted says which).
func (c *Cmd) HostPath(p string) (host string, mounted bool) { return c.hostPath(p, false) }

// ReadPath is HostPath for reading: read-only mounts count too.
func (c *Cmd) ReadPath(p string) (host string, mounted bool) { return c.hostPath(p, true) }

func (c *Cmd) hostPath(p string, read bool) (string, bool) {
	best := -1
	for i, m := range c.Mounts {
		if (read || !m.ReadOnly) && (p == m.Container || strings.HasPrefix(p, strings.TrimSuffix(m.Container, "/")+"/")) && (best < 0 || len(m.Container) > len(c.Mounts[best].Container)) {
			best = i
		}
	}
	if best < 0 {
		return p, false
	}
	m := c.Mounts[best]
	return path.Clean(m.Host + "/" + strings.TrimPrefix(p, m.Container)), true
}

// Input describes what flows into a command's standard input.
type Input struct {
	// From are the commands whose output is piped in (the whole upstream pipeline).
	From []*Cmd
	// Text is the literal content when it is known: a here-document, a here-string, or the
	// output of an upstream echo/printf.
	Text string
	// Known says Text is the whole input.
	Known bool
	// File is a file redirected in with <.
	File string
}

// Redir is one redirection of a command.
type Redir struct {
	// Op is the operator as written: > >> >| &> &>> < << <<- <<< <> >& <&.
	Op string
	// Fd is the file descriptor number when given (2> is "2").
	Fd string
	// Target is the resolved path (or fd for >&); /dev/tcp/... paths stay as written.
	Target string
}

// Writes reports whether the redirection writes its target.
func (r Redir) Writes() bool {
	switch r.Op {
	case ">", ">>", ">|", "&>", "&>>", "<>":
		return true
	case ">&":
		return !isFd(r.Target)
	}
	return false
}

func isFd(s string) bool {
	if s == "-" {
		return true
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// Analysis is everything a command would run.
type Analysis struct {
	Cmds []*Cmd
	// ForkBombs names functions that call themselves in a pipeline or the background.
	ForkBombs []string
	// Notes records what the analysis saw but could not follow (for --explain).
	Notes []string
}

type analyzer struct {
	world     World
	limits    Limits
	cmds      []*Cmd
	substs    [][]*Cmd                // commands behind each substitution stand-in
	src       []string                // the scripts being analysed, innermost last
	funcs     map[string]*syntax.Stmt // functions defined in the command: name -> body
	calling   []string                // functions being analysed at a call, innermost last
	calls     int                     // calls analysed so far: capped, as each repeats a body
	written   map[string]string       // files the command line writes with known text (echo > f, cat <<EOF > f)
	hooksPath string                  // git's hooks directory set with -c core.hooksPath
	links     map[string]string       // symbolic links made with ln -s in the line: link -> target
	scripts   map[string]string       // package scripts set in the line (npm pkg set scripts.x=...)
	defining  int                     // > 0 while a function's body is read where it is defined
	locals    []map[string]*string    // per call being analysed: the caller's values of its locals
	aliases   map[string]string       // git aliases defined in the command: name -> shell text
	shAlias   map[string]string       // shell aliases defined in the command: name -> text
	depth     int
	inRemote  int
	// mounts are the bind mounts of the container being analysed (docker run -v); fresh says
	// it is a new one.
	mounts []Mount
	fresh  bool
	via    []string
	res    *Analysis
	err    error
}

// state is what a statement sees of the statements before it: working directory, variables.
type state struct {
	cwd  string
	vars map[string]string
}

func (s *state) child() *state {
	vars := make(map[string]string, len(s.vars))
	for k, v := range s.vars {
		vars[k] = v
	}
	return &state{cwd: s.cwd, vars: vars}
}

// Analyze parses a Bash command and returns every simple command it would run. A command that
// cannot be parsed, or that exceeds the limits, is an error: it cannot be judged.
func Analyze(src string, w World, l Limits) (*Analysis, error) {
	l = l.withDefaults()
	if len(src) > l.MaxBytes {
		return nil, &LimitError{fmt.Sprintf("the command is %d bytes, over the %d-byte limit", len(src), l.MaxBytes)}
	}
	// Before parsing: a line with thousands of separators or substitutions is no tool call a
	// person would review; refusing it here keeps the worst case to a scan of the bytes.
	if n := separators(src); n > l.MaxCmds {
		return nil, &LimitError{fmt.Sprintf("the command chains %d commands, over the limit of %d", n, l.MaxCmds)}
	}
	a := &analyzer{world: w, limits: l, funcs: map[string]*syntax.Stmt{}, aliases: map[string]string{}, res: &Analysis{}}
	if w.Cwd == "" {
		a.world.Cwd = "/"
	}
	if err := a.script(src, &state{cwd: a.world.Cwd, vars: map[string]string{}}, nil, ""); err != nil {
		return nil, err
	}
	if a.err != nil {
		return nil, a.err
	}
	a.res.Cmds = a.cmds
	return a.res, nil
}

// separators counts what can start a new command: | & ; $( and backquotes.
func separators(src string) int {
	n := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '|', '&', ';', '`':
			n++
		case '$':
			if i+1 < len(src) && src[i+1] == '(' {
				n++
			}
		}
	}
	return n
}

// parsers are reused: a parser resets itself on every Parse and keeps nothing of the tree it
// built, and a summary of a long session analyses tens of thousands of commands.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// parse parses Bash. A here-document left open at the end is closed there, as bash does (it
// warns, and takes the rest of the text as the body): `cat <<EOF` alone reads an empty body.
func parse(src string) (*syntax.File, error) {
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	for range 4 {
		f, err := p.Parse(strings.NewReader(src), "")
		var pe syntax.ParseError
		if err == nil || !errors.As(err, &pe) {
			return f, err
		}
		q, ok := strings.CutPrefix(pe.Text, "unclosed here-document ")
		stop, uerr := strconv.Unquote(q)
		if !ok || uerr != nil || stop == "" || strings.ContainsAny(stop, "\n") {
			return f, err
		}
		if !strings.HasSuffix(src, "\n") {
			src += "\n"
		}
		src += stop + "\n"
	}
	return p.Parse(strings.NewReader(src), "")
}

// script parses and analyses shell text run at one more level of nesting.
func (a *analyzer) script(src string, st *state, in *Input, via string) error {
	if a.depth >= a.limits.MaxDepth {
		a.fail(&LimitError{fmt.Sprintf("commands nest deeper than %d levels (bash -c, eval, ...)", a.limits.MaxDepth)})
		return a.err
	}
	f, err := parse(src)
	if err != nil {
		var pe syntax.ParseError
		if errors.As(err, &pe) {
			return &ParseError{Msg: pe.Text, Line: int(pe.Pos.Line()), Col: int(pe.Pos.Col())}
		}
		return &ParseError{Msg: err.Error()}
	}
	if via != "" {
		a.via = append(a.via, via)
		defer func() { a.via = a.via[:len(a.via)-1] }()
	}
	a.depth++
	defer func() { a.depth-- }()
	a.src = append(a.src, src)
	defer func() { a.src = a.src[:len(a.src)-1] }()
	a.stmts(f.Stmts, st, in)
	return nil
}

// ParseError is a command that is not valid Bash.
type ParseError struct {
	Msg       string
	Line, Col int
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
	}
	return e.Msg
}

func (a *analyzer) fail(err error) {
	if a.err == nil {
		a.err = err
	}
}

func (a *analyzer) note(format string, args ...any) {
	a.res.Notes = append(a.res.Notes, fmt.Sprintf(format, args...))
}

// resolve makes a path absolute against dir, with ~ already expanded; Dyn parts survive.
func (a *analyzer) resolve(p, dir string) string {
	return Resolve(p, dir, a.world.Home)
}

// Resolve makes p absolute against dir and cleans it; a leading ~ or ~/ means home.
// Paths that start with a run-time value are returned unchanged.
func Resolve(p, dir, home string) string {
	switch {
	case p == "":
		return ""
	case strings.HasPrefix(p, Dyn):
		return p
	case p == "~":
		p = home
	case strings.HasPrefix(p, "~/"):
		p = home + p[1:]
	case strings.HasPrefix(p, "/dev/tcp/"), strings.HasPrefix(p, "/dev/udp/"):
		return p
	}
	if d, ok := drivePath(winSpelling(p)); ok {
		return d // C:\x, and \\?\C:\x, \\localhost\C$\x, PROGRA~1 spelled so
	}
	if !strings.HasPrefix(p, "/") {
		if d, ok := drivePath(dir); ok {
			dir = d
		}
		p = dir + "/" + p
	}
	return path.Clean(p)
}

// drivePath writes a Windows path with a drive letter (C:\Users, C:/Users, C:) in the one
// form the rules compare, /c:/Users: absolute, with / between its parts, the drive in lower
// case and its colon kept, so that it is never a directory of a Unix machine such as /c.
func drivePath(p string) (string, bool) {
	if len(p) < 2 || p[1] != ':' || !(p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z') || len(p) > 2 && p[2] != '\\' && p[2] != '/' {
		return "", false
	}
	return path.Clean("/" + strings.ToLower(p[:1]) + ":/" + strings.ReplaceAll(p[2:], `\`, "/")), true
}
