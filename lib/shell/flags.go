package shell

import "strings"

// Opts describes a program's options for splitting them from its operands.
type Opts struct {
	// Short lists the single-letter options that take a value (-u root, -uroot).
	Short string
	// Long lists the long options that take a value (--user root, --user=root).
	Long []string
	// StopAtOperand ends option parsing at the first operand (POSIX, and every wrapper).
	StopAtOperand bool
}

// Parsed is a command line split into options and operands.
type Parsed struct {
	// Flags maps each option seen, without dashes ("r", "f", "recursive"), to its last value.
	Flags map[string]string
	// Operands are the remaining arguments in order.
	Operands []string
	// Rest is what follows the options when StopAtOperand is set (operands and all after).
	Rest []string
}

// Has reports whether any of the named options was given.
func (p Parsed) Has(names ...string) bool {
	for _, n := range names {
		if _, ok := p.Flags[n]; ok {
			return true
		}
	}
	return false
}

// Value returns the value of the first of the named options that was given.
func (p Parsed) Value(names ...string) (string, bool) {
	for _, n := range names {
		if v, ok := p.Flags[n]; ok {
			return v, true
		}
	}
	return "", false
}

// Parse splits args by o: clusters such as -rf are split into r and f, "--" ends the options,
// and a lone "-" is an operand.
func (o Opts) Parse(args []string) Parsed {
	p := Parsed{Flags: map[string]string{}}
	p.Operands, p.Rest = o.scan(args, func(name, val string) { p.Flags[name] = val })
	return p
}

// Values returns every value given to the named options, in order (docker run -v a -v b).
func (o Opts) Values(args []string, names ...string) []string {
	var out []string
	o.scan(args, func(name, val string) {
		for _, n := range names {
			if n == name {
				out = append(out, val)
			}
		}
	})
	return out
}

// scan walks args, handing each option and its value to flag, and returns the operands and,
// with StopAtOperand, what follows the options.
func (o Opts) scan(args []string, flag func(name, val string)) (operands, rest []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
			if o.StopAtOperand {
				rest = args[i+1:]
			}
			return operands, rest
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			if !hasVal && o.long(name) && i+1 < len(args) {
				i++
				val = args[i]
			}
			flag(name, val)
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				c := a[j : j+1]
				if strings.Contains(o.Short, c) {
					val := a[j+1:]
					if val == "" && i+1 < len(args) {
						i++
						val = args[i]
					}
					flag(c, val)
					break
				}
				flag(c, "")
			}
		default:
			if o.StopAtOperand {
				return append(operands, args[i:]...), args[i:]
			}
			operands = append(operands, a)
		}
	}
	return operands, rest
}

func (o Opts) long(name string) bool {
	for _, l := range o.Long {
		if l == name {
			return true
		}
	}
	return false
}
