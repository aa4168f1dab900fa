package briefing

import "strings"

// Ignored is the notice, at the top of the briefing, of the project's policy files the guards
// ignore (config.LoadScopes: one that does not parse, loosens, is not a regular file or is too
// large), one line each as the loader words it; "" when there are none. A repository cannot
// loosen a guard with them, and the user and the model learn that a rule they may rely on is
// not applied.
func Ignored(problems []string) string {
	if len(problems) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Note from the harness: the guards ignore these policy files of the project and judge by the user's and the system's policies alone (a project policy may only tighten them):")
	for _, p := range problems {
		b.WriteString("\n- " + strings.ReplaceAll(clean(p), "\n", " "))
	}
	return b.String()
}
