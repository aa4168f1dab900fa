package shell

import (
	"slices"
	"strings"
)

// Source is a path a command reads.
type Source struct {
	// Path is resolved against the command's directory; it may hold glob characters (*, ?, [)
	// and Dyn or Match marks for parts known only at run time.
	Path string
	// How names the reading program: "cat", "< redirect", "cp", "tar", "source", "code", ...
	How string
	// Tree is set when everything under the path is read (tar, cp -r, grep -r, zip -r).
	Tree bool
	// Loads is set when the content is used, not shown: source, . and paths named in
	// interpreter code (load_dotenv(".env") reads values the model never sees).
	Loads bool
}

// Reads lists the paths whose content the command reads: its < redirections, the file
// operands of the programs that print, convert, search or copy files (cat, less, head, base64,
// xxd, grep, sed, awk, jq, cp, rsync, scp, tar, zip, dd if=, curl file:// and uploads,
// openssl -in, source), and the path literals of interpreter code. Patterns and pattern files
// of grep, sed, awk and jq are not reads of data. Listing programs (ls, find, stat, du) read
// names, not content, and are left out.
func (c *Cmd) Reads(home string) []Source {
	var out []Source
	res := func(p string) string { return Resolve(p, c.Dir, home) }
	add := func(how string, tree bool, ps ...string) {
		for _, p := range ps {
			if p != "" && p != "-" && !strings.HasPrefix(p, "/dev/fd/") && !strings.HasPrefix(p, procMark) && !strings.Contains(p, "://") {
				out = append(out, Source{Path: res(p), How: how, Tree: tree})
			}
		}
	}
	for _, r := range c.Redirs {
		if (r.Op == "<" || r.Op == "<>") && r.Target != "" && !strings.HasPrefix(r.Target, procMark) {
			out = append(out, Source{Path: r.Target, How: "< redirect"})
		}
	}
	switch c.Name {
	case "cat", "tac", "nl", "less", "more", "most", "bat", "batcat", "base64", "base32", "basenc", "xxd", "od", "hexdump", "hd",
		"strings", "rev", "fold", "fmt", "pr", "expand", "unexpand", "column", "paste", "comm", "join", "diff", "sdiff", "diff3",
		"zcat", "zless", "zmore", "bzcat", "xzcat", "zstdcat", "lz4cat", "uuencode", "iconv", "shuf", "head", "tail", "cut", "sort",
		"uniq", "split", "csplit", "gzip", "gunzip", "bzip2", "xz", "zstd", "lz4", "pigz":
		ops := readerOpts(c.Name).Parse(c.Args).Operands
		if (c.Name == "split" || c.Name == "csplit" || c.Name == "uniq") && len(ops) > 1 {
			ops = ops[:1] // the rest are an output prefix, patterns or an output file
		}
		add(c.Name, false, ops...)
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep", "sed", "gsed", "awk", "gawk", "mawk", "nawk", "jq", "gojq", "jaq", "yq":
		o := Opts{Short: "efABCmdDgtTMjF", Long: []string{"regexp", "file", "after-context", "before-context", "context", "max-count", "glob", "type", "type-not",
			"include", "exclude", "exclude-dir", "expression", "arg", "argjson", "slurpfile", "rawfile", "indent", "field-separator", "assign", "output-format", "input-format", "max-depth", "threads"}}
		if strings.HasSuffix(c.Name, "awk") {
			o.Short = "fFv"
		}
		p := o.Parse(c.Args)
		ops := p.Operands
		// The first operand is the pattern, script or filter, unless -e or -f gave it (rg -f
		// and ag -f mean other things; yq FILE alone filters with .).
		script := !p.Has("e", "regexp", "expression") && !(p.Has("f", "file") && c.Name != "rg" && c.Name != "ag")
		if c.Name == "yq" && len(ops) == 1 && !strings.ContainsAny(ops[0], ".|") {
			script = false
		}
		if script && len(ops) > 0 {
			ops = ops[1:]
		}
		tree := p.Has("r", "R", "recursive", "dereference-recursive") || c.Name == "rg" || c.Name == "ag" || c.Name == "ack"
		if len(ops) == 0 && tree {
			ops = []string{"."} // rg, ag and grep -r search the working directory
		}
		how := c.Name
		if (c.Name == "rg" || c.Name == "ag") && (p.Has("hidden", "u", "a", "all-types", "unrestricted") || strings.Contains(strings.Join(c.Args, " "), "-uu")) {
			how += " --hidden" // rg and ag skip hidden files and directories unless told
		}
		add(how, tree, ops...)
	case "cp", "install", "mv", "rsync", "scp", "rclone":
		p := copyOpts(c.Name).Parse(c.Args)
		tree := c.Name == "mv" || c.Name == "rclone" || p.Has("r", "R", "a", "recursive", "archive")
		if t, ok := p.Value("t", "target-directory"); ok && t != "" && c.Name != "rsync" && c.Name != "scp" {
			add(c.Name, tree, p.Operands...)
		} else if len(p.Operands) >= 2 {
			for _, s := range p.Operands[:len(p.Operands)-1] {
				if (c.Name == "rsync" || c.Name == "scp" || c.Name == "rclone") && remotePath(s) {
					continue
				}
				add(c.Name, tree, s)
			}
		}
	case "tar", "bsdtar", "gtar":
		c.tarReads(add)
	case "zip", "7z", "7za", "7zz":
		p := Opts{Short: "xibntP", Long: []string{"exclude", "include", "password"}}.Parse(c.Args)
		ops := p.Operands
		if c.Name != "zip" {
			if len(ops) == 0 || ops[0] != "a" {
				break
			}
			ops = ops[1:]
		}
		if len(ops) > 1 {
			add(c.Name, true, ops[1:]...) // the archive first, then what goes in it
		}
	case "dd":
		for _, a := range c.Args {
			if f, ok := strings.CutPrefix(a, "if="); ok {
				add("dd if=", false, f)
			}
		}
	case "openssl", "ssh-keygen", "gpg", "gpg2", "age", "sops":
		if c.Name == "ssh-keygen" {
			break // it shows a key's fingerprint or public half, never the private key
		}
		for i, a := range c.Args {
			if (a == "-in" || a == "-inkey" || a == "--decrypt" || a == "-d" || a == "-i") && i+1 < len(c.Args) {
				add(c.Name, false, c.Args[i+1])
			}
		}
		if c.Name != "openssl" {
			if ops := (Opts{Short: "oruk", Long: []string{"output", "recipient", "local-user", "homedir"}}.Parse(c.Args).Operands); len(ops) > 0 && c.Name != "age" {
				add(c.Name, false, ops[len(ops)-1])
			}
		}
	case "curl":
		// file:// URLs print the file; uploads (-T FILE, -d @FILE, -F name=@FILE) send it.
		for i, a := range c.Args {
			prev := ""
			if i > 0 {
				prev = c.Args[i-1]
			}
			switch {
			case strings.HasPrefix(a, "file://"):
				out = append(out, Source{Path: res(strings.TrimPrefix(a, "file://")), How: "curl file://"})
			case prev == "-T" || prev == "--upload-file":
				add("curl -T", false, a)
			case strings.Contains(a, "@") && (strings.HasPrefix(prev, "-d") || strings.HasPrefix(prev, "--data") || prev == "-F" || prev == "--form"):
				add("curl @", false, strings.SplitN(a[strings.LastIndex(a, "@")+1:], ";", 2)[0])
			}
		}
	case "git":
		// git grep --no-index searches files as grep -r does, in or out of a repository
		if len(c.Args) > 1 && c.Args[0] == "grep" && slices.Contains(c.Args, "--no-index") {
			ops := Opts{Short: "efABCmO", Long: []string{"regexp", "file", "after-context", "before-context", "context", "max-count", "threads", "open-files-in-pager", "max-depth"}}.Parse(c.Args[1:])
			files := ops.Operands
			if !ops.Has("e", "regexp", "f", "file") && len(files) > 0 {
				files = files[1:]
			}
			if len(files) == 0 {
				files = []string{"."}
			}
			add("grep", true, files...)
		}
	case "perl", "ruby":
		// perl -ne/-pe CODE FILE... and ruby -n/-p: the code runs over every line of the files.
		if lineLoop(c.Args) {
			add(c.Name+" -n", false, scriptOperands(c.Args)...)
		}
	case "source", ".":
		if len(c.Args) > 0 {
			out = append(out, Source{Path: res(c.Args[0]), How: c.Name, Loads: true})
		}
	case "Get-Content", "Import-Csv", "Import-Clixml", "Format-Hex", "Select-String", "Copy-Item", "Move-Item", "Compress-Archive", "Invoke-WebRequest":
		out = append(out, c.psReads(home)...)
	case "pwsh", "powershell":
		for _, sub := range c.psNested(home) {
			out = append(out, sub.Reads(home)...)
		}
	}
	if c.Code != "" {
		out = append(out, codeReads(c.Name, c.Code, home, c.Dir)...)
	}
	return out
}

// tarReads finds what tar puts in an archive it creates (with -C changing the directory the
// names are relative to), or the archive it lists or extracts.
func (c *Cmd) tarReads(add func(how string, tree bool, ps ...string)) {
	create, dir := false, ""
	var files []string
	args := c.Args
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		args = append([]string{"-" + args[0]}, args[1:]...) // tar czf: the old bundled form
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		takes := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch {
		case a == "--create":
			create = true
		case a == "-C" || a == "--directory":
			dir = takes()
		case strings.HasPrefix(a, "--directory="):
			dir = strings.TrimPrefix(a, "--directory=")
		case a == "-f" || a == "--file" || a == "-T" || a == "--files-from" || a == "-X" || a == "--exclude-from" || a == "--exclude" || a == "-I" || a == "--use-compress-program":
			takes()
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if strings.Contains(a, "c") {
				create = true
			}
			// a bundled f (czf, -cvf) takes the next word as the archive
			for _, f := range "fTXI" {
				if strings.ContainsRune(a[1:], f) {
					takes()
				}
			}
		default:
			if dir != "" && !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, "~") {
				a = strings.TrimSuffix(dir, "/") + "/" + a
			}
			files = append(files, a)
		}
	}
	if create {
		add(c.Name, true, files...)
	}
}

// lineLoop reports perl's or ruby's -n or -p (in a cluster such as -lne, -pi, -ane).
func lineLoop(args []string) bool {
	for _, a := range args {
		if a == "--" || !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "--") {
			break
		}
		if strings.ContainsAny(strings.SplitN(a[1:], "e", 2)[0], "np") || strings.HasSuffix(a, "n") || strings.HasSuffix(a, "p") {
			return true
		}
	}
	return false
}

// scriptOperands are the file operands after an interpreter's -e CODE options (or, with no
// -e, after the script file).
func scriptOperands(args []string) []string {
	var out []string
	code := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(out, args[i+1:]...)
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if strings.HasSuffix(a, "e") || strings.HasSuffix(a, "E") {
				i++ // the code
				code = true
			}
		case !code:
			code = true // the script file
		default:
			out = append(out, a)
		}
	}
	return out
}

// codeReads are the paths a piece of interpreter code names: quoted string literals that look
// like paths (absolute, ~/, ./, ../, or relative ones with a folder, an .env or a key file's
// name), and the home-relative expressions CodePaths evaluates. A literal handed to a dotenv
// loader is loaded, not shown (Loads); one only tested for existence is not read at all.
func codeReads(name, code, home, dir string) []Source {
	var out []Source
	for i := 0; i < len(code) && len(out) < 64; i++ {
		q := code[i]
		if q != '\'' && q != '"' && q != '`' {
			continue
		}
		end := strings.IndexByte(code[i+1:], q)
		if end < 0 {
			break
		}
		lit := interpolateHome(code[i+1:i+1+end], home, dir) // "$ENV{HOME}/.aws/credentials"
		before := code[max(0, i-40):i]
		i += end + 1
		if !codePath(lit) || existenceTest(before, code[i:]) {
			continue
		}
		out = append(out, Source{Path: Resolve(lit, dir, home), How: name + " code", Loads: loader(before)})
	}
	for _, p := range CodePaths(code, home, dir) {
		out = append(out, Source{Path: p, How: name + " code", Loads: true})
	}
	return out
}

// codePath reports a string literal of code that names a file.
func codePath(lit string) bool {
	if lit == "" || len(lit) > 256 || strings.ContainsAny(lit, " \n\t{}$:,;=()<>|*") {
		return false
	}
	if strings.HasPrefix(lit, "/") || strings.HasPrefix(lit, "~/") || strings.HasPrefix(lit, "./") || strings.HasPrefix(lit, "../") {
		return true
	}
	base := lit[strings.LastIndexByte(lit, '/')+1:]
	switch {
	case base == ".env" || strings.HasPrefix(base, ".env."):
		return true
	case strings.HasPrefix(base, "id_") || strings.HasSuffix(base, ".pem") || strings.HasSuffix(base, ".key") ||
		strings.HasSuffix(base, ".p12") || strings.HasSuffix(base, ".pfx") || strings.HasSuffix(base, ".jks") || strings.HasSuffix(base, ".keystore"):
		return true
	}
	// a relative path with a folder (.ssh/id_rsa, config/.env, creds/credentials); a MIME type
	// or a module name read as one costs a lookup in the project and nothing else
	return strings.Contains(lit, "/") && !strings.Contains(lit, "//") && base != ""
}

// loader reports code that loads a file into the environment (python-dotenv's load_dotenv,
// dotenv.config, Dotenv.load, godotenv.Load, phpdotenv): its values are used, not shown.
func loader(before string) bool {
	b := strings.ToLower(before)
	if i := strings.LastIndexAny(b, ";\n"); i >= 0 {
		b = b[i+1:]
	}
	if strings.Contains(b, "values") || strings.Contains(b, "parse") || strings.Contains(b, "read") {
		return false // dotenv_values, dotenv.parse, Dotenv.parse: the values handed to the code
	}
	return strings.Contains(b, "dotenv") || strings.Contains(b, "env_file") || strings.Contains(b, "load_env")
}

// existenceTest reports a literal handed to a call that only asks whether the file is there
// (os.path.exists('.env'), Path('.env').exists()).
func existenceTest(before, after string) bool {
	for _, m := range []string{").exists()", ").is_file()", ").exist?", ").isFile()"} {
		if strings.HasPrefix(after[min(1, len(after)):], m) {
			return true
		}
	}
	b := strings.TrimRight(before, " ")
	for _, f := range []string{"exists(", "isfile(", "existsSync(", "exist?(", "file?(", "file_exists(", "is_file(", "-e ", "-f "} {
		if strings.HasSuffix(b, f) {
			return true
		}
	}
	return false
}

// readerOpts are the options of the printing and converting programs that take a value, so
// that -n 5 or -w 76 is not read as a file.
func readerOpts(name string) Opts {
	switch name {
	case "head", "tail":
		return Opts{Short: "ncs", Long: []string{"lines", "bytes", "sleep-interval", "pid", "max-unchanged-stats"}}
	case "cut":
		return Opts{Short: "bcdf", Long: []string{"bytes", "characters", "delimiter", "fields", "output-delimiter"}}
	case "sort":
		return Opts{Short: "kotST", Long: []string{"key", "output", "field-separator", "buffer-size", "temporary-directory", "parallel", "files0-from", "sort", "random-source", "batch-size", "compress-program"}}
	case "uniq":
		return Opts{Short: "fsw", Long: []string{"skip-fields", "skip-chars", "check-chars", "group", "all-repeated"}}
	case "split", "csplit":
		return Opts{Short: "abClnfb", Long: []string{"suffix-length", "additional-suffix", "bytes", "line-bytes", "lines", "number", "filter", "prefix", "suffix-format", "digits"}}
	case "xxd":
		return Opts{Short: "cglosn", Long: []string{"cols", "groupsize", "len", "seek", "name"}}
	case "od":
		return Opts{Short: "AjNtwS", Long: []string{"address-radix", "skip-bytes", "read-bytes", "format", "width", "strings", "endian"}}
	case "hexdump", "hd":
		return Opts{Short: "efns"}
	case "base64", "base32", "basenc", "fold":
		return Opts{Short: "w", Long: []string{"wrap", "width"}}
	case "fmt", "pr", "column":
		return Opts{Short: "wgplhoNcsCRWH", Long: []string{"width", "goal", "prefix", "length", "header", "indent", "output-width", "separator", "table-columns", "output-separator"}}
	case "paste":
		return Opts{Short: "d", Long: []string{"delimiters"}}
	case "shuf":
		return Opts{Short: "nio", Long: []string{"head-count", "input-range", "output", "random-source"}}
	case "strings":
		return Opts{Short: "nte", Long: []string{"bytes", "radix", "encoding", "output-separator"}}
	case "expand", "unexpand":
		return Opts{Short: "t", Long: []string{"tabs"}}
	case "nl":
		return Opts{Short: "bdfhilnsvw", Long: []string{"body-numbering", "section-delimiter", "footer-numbering", "header-numbering", "line-increment", "join-blank-lines", "number-format", "number-separator", "starting-line-number", "number-width"}}
	case "iconv":
		return Opts{Short: "fto", Long: []string{"from-code", "to-code", "output"}}
	case "join":
		return Opts{Short: "aejot12"}
	case "diff", "sdiff":
		return Opts{Short: "UCxXLIFWDSo", Long: []string{"unified", "context", "exclude", "exclude-from", "label", "ignore-matching-lines", "show-function-line", "width", "ifdef", "starting-file", "output", "line-format", "new-line-format", "old-line-format", "unchanged-line-format", "horizon-lines", "palette", "color", "tabsize"}}
	case "gzip", "gunzip", "bzip2", "xz", "zstd", "lz4", "pigz":
		return Opts{Short: "So", Long: []string{"suffix", "threads", "memlimit", "format", "output"}}
	case "less", "more", "most":
		return Opts{Short: "bhjkOopPTxyz#", Long: []string{"log-file", "tag", "prompt", "tabs", "window", "shift"}}
	}
	return Opts{}
}
