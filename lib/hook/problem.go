package hook

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
)

// problems are what a hook reported about one call besides its answer (a project policy file
// it ignored): each is on stderr as soon as it is reported, and in the call's Verdict.
type problems struct {
	mu   sync.Mutex
	name string
	w    io.Writer
	list []string
}

type problemsKey struct{}

func withProblems(ctx context.Context, p *problems) context.Context {
	return context.WithValue(ctx, problemsKey{}, p)
}

// Problem reports something wrong that the hook worked around, such as a project policy file
// it ignored: one line on stderr, prefixed with the hook's name, and kept for the call's
// record (Verdict.Problems, which the guards' audit records carry). Outside a hook call it
// goes to os.Stderr alone.
func Problem(ctx context.Context, msg string) {
	p, ok := ctx.Value(problemsKey{}).(*problems)
	if !ok {
		fmt.Fprintln(os.Stderr, msg)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.list = append(p.list, msg)
	fmt.Fprintf(p.w, "%s: %s\n", p.name, msg)
}

// all is a copy of the problems reported so far.
func (p *problems) all() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.list...)
}
