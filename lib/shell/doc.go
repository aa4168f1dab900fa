// Package shell parses Bash and PowerShell command lines and works out what they really run:
// the program and arguments of each simple command after wrappers are unwrapped (sudo, env,
// xargs, find -exec, bash -c, eval, ...), the files they read and write, and the code they hand
// to interpreters. Rules in lib/danger and lib/paths read its Cmd values, not the text.
//
// # In-band markers
//
// Words are expanded as Bash would expand them, but some parts are only known when the command
// runs. Those parts are written into the expanded strings as markers that start with a NUL
// byte, which no real argument, path or variable value can hold:
//
//   - Dyn ("\x00") alone is a value known only at run time: a command substitution's output, an
//     unknown variable, arithmetic. Rules read it as "could be anything".
//   - Dyn 'S' index Dyn and Dyn 'P' index Dyn stand for a command or process substitution's
//     output and remember which substitution it was.
//   - Dyn 'V' name Dyn stands for an unknown variable and keeps its name ($AWS_SECRET_ACCESS_KEY
//     is not $PORT); Dyn 'G' name Dyn is the same under ${name:?}: unknown but never empty.
//   - Match (Dyn 'M' Dyn) stands for what a filtered find matches under a start path: things
//     inside it, never the start path itself.
//
// Other packages ask rather than look for Dyn themselves: Known (no run-time part), Unknown
// (nothing but one), StartsUnknown and Guarded (${name:?}, never empty) say what a string
// holds; Plain folds every marker to a single Dyn, for the few rules that take a path apart
// where its run-time part sits; Vars lists the unknown variables a value is made of, and Show
// renders a string for people ($NAME for a variable, "…" otherwise).
//
// Inside the package, a few more bytes are markers that never leave it: splitMark ("\x02")
// before each IFS character of an unquoted expansion, where the word splits; arraySep ("\x01")
// between an array's elements; and keys starting with NUL (the directory stack, sed's pattern
// space) that no shell variable can be named.
package shell
