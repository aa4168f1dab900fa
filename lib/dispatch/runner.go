package dispatch

import (
	"context"
	"sort"
	"sync"
	"time"
)

// Runner is a dispatcher to embed: base hooks from settings, Go callbacks registered next to
// them, and scoped hooks added and removed per agent, merged with the base hooks on every
// fire. Safe for concurrent use.
type Runner struct {
	mu        sync.RWMutex
	base      *Settings
	callbacks map[string][]Group
	scoped    map[string]*Settings
}

// NewRunner starts a runner on base settings (nil: none).
func NewRunner(base *Settings) *Runner {
	if base == nil {
		base = &Settings{Events: map[string][]Group{}}
	}
	return &Runner{base: base, callbacks: map[string][]Group{}, scoped: map[string]*Settings{}}
}

// Register adds a Go callback as a hook on event ev for the payloads matcher matches.
func (r *Runner) Register(ev, matcher, name string, timeout time.Duration, fn Callback) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.callbacks[ev] = append(r.callbacks[ev], Group{Matcher: matcher, Source: "callback",
		Hooks: []Handler{{Name: name, Callback: fn, Timeout: timeout, Matcher: matcher, Source: "callback"}}})
}

// RegisterScoped adds the hooks of one scope (an agent); they fire with the base hooks until
// UnregisterScoped. Registering a scope again replaces it.
func (r *Runner) RegisterScoped(scope string, s *Settings) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.scoped[scope] = s
}

// UnregisterScoped removes a scope's hooks.
func (r *Runner) UnregisterScoped(scope string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.scoped, scope)
}

// Fire runs every hook that matches: base, callbacks, then each scope in name order.
func (r *Runner) Fire(ctx context.Context, ev string, payload []byte, env Env) Verdict {
	r.mu.RLock()
	merged := &Settings{Events: map[string][]Group{}}
	merged.Events[ev] = append(append([]Group{}, r.base.Events[ev]...), r.callbacks[ev]...)
	scopes := make([]string, 0, len(r.scoped))
	for s := range r.scoped {
		scopes = append(scopes, s)
	}
	sort.Strings(scopes)
	for _, s := range scopes {
		merged.Events[ev] = append(merged.Events[ev], r.scoped[s].Events[ev]...)
	}
	r.mu.RUnlock()
	return Run(ctx, ev, payload, merged.Select(ev, payload), env)
}
