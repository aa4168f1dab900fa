// What pwsh, powershell and Start-Process are told to run: the host's -Command and
// -EncodedCommand, and the program and arguments Start-Process starts.

package shell

import (
	"encoding/base64"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// psStartProcess returns the program Start-Process starts and its arguments (-FilePath or
// the first positional word; -ArgumentList or the positional words after it). A quoted word
// in the list is an argument even when it starts with -.
func psStartProcess(args []string, quoted []bool) (prog string, list []string) {
	inList := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") && len(a) > 1 && !quoted[i] {
			name, val, has := strings.Cut(strings.ToLower(a[1:]), ":")
			inList = false
			switch {
			case name == "args" || name == "al" || len(name) >= 2 && strings.HasPrefix("argumentlist", name):
				inList = true
				if has {
					list = append(list, val)
				}
			case name == "pspath" || name == "path" || len(name) >= 2 && strings.HasPrefix("filepath", name):
				if has {
					prog = val
				} else if i+1 < len(args) {
					prog = args[i+1]
					i++
				}
			case strings.HasPrefix(name, "redirect") || strings.HasPrefix(name, "rs") || name == "verb" || name == "windowstyle" ||
				name == "workingdirectory" || name == "wd" || name == "credential" || name == "environment":
				if !has {
					i++
				}
			}
			continue
		}
		if prog == "" && !inList {
			prog = a
			inList = true // positional words after the program are its arguments
			continue
		}
		list = append(list, a)
	}
	return prog, list
}

// psHostCode returns the PowerShell that pwsh or powershell is told to run: -Command's text
// (the rest of the line), -EncodedCommand's base64 of UTF-16LE text decoded; unread says why
// it cannot be read. powershell (Windows PowerShell) takes a bare first word as -Command,
// pwsh as -File.
func psHostCode(name string, args []string) (code, unread string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' && a[0] != '/' {
			if name == "powershell" {
				return PSNormalize(strings.Join(args[i:], " ")), ""
			}
			return "", "" // a script file
		}
		opt, val, has := strings.Cut(strings.ToLower(strings.TrimLeft(a, "-/")), ":")
		next := func() string {
			if has {
				return val
			}
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch {
		case opt == "c" || len(opt) >= 3 && strings.HasPrefix("command", opt):
			if has {
				return PSNormalize(strings.Join(append([]string{val}, args[i+1:]...), " ")), ""
			}
			if i+1 < len(args) && args[i+1] == "-" {
				return "", "" // the script is read from stdin
			}
			return PSNormalize(strings.Join(args[i+1:], " ")), ""
		case opt == "e" || opt == "ec" || len(opt) >= 2 && strings.HasPrefix("encodedcommand", opt):
			text, ok := psDecode(next())
			if !ok {
				return "", "its -EncodedCommand does not decode as base64 of UTF-16LE text"
			}
			return PSNormalize(text), ""
		case opt == "f" || len(opt) >= 2 && strings.HasPrefix("file", opt):
			return "", ""
		case opt == "ea" || strings.HasPrefix("encodedarguments", opt) && len(opt) >= 8:
			next()
		case opt == "ex" || opt == "ep" || len(opt) >= 2 && strings.HasPrefix("executionpolicy", opt) || opt == "w" || strings.HasPrefix("windowstyle", opt) && len(opt) >= 2 ||
			opt == "o" || opt == "of" || strings.HasPrefix("outputformat", opt) && len(opt) >= 2 || opt == "if" || strings.HasPrefix("inputformat", opt) && len(opt) >= 2 ||
			opt == "wd" || strings.HasPrefix("workingdirectory", opt) && len(opt) >= 2 || strings.HasPrefix("configurationname", opt) && len(opt) >= 3 ||
			strings.HasPrefix("settingsfile", opt) && len(opt) >= 2 || strings.HasPrefix("custompipename", opt) && len(opt) >= 2 || opt == "version" || opt == "v" || opt == "psconsolefile":
			next()
		}
	}
	return "", ""
}

// psDecode decodes an -EncodedCommand: base64 of UTF-16LE text.
func psDecode(s string) (string, bool) {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) == 0 || len(b)%2 != 0 {
		return "", false
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	text := string(utf16.Decode(u))
	if !utf8.ValidString(text) || strings.ContainsRune(text, 0) {
		return "", false
	}
	return text, true
}
