package danger

import "sync"

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

func at(list []string, i int) string {
	if i < len(list) {
		return list[i]
	}
	return ""
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// lazy is a value built the first time it is needed, not at every hook's start.
type lazy[T any] struct {
	once sync.Once
	new  func() T
	v    T
}

func (l *lazy[T]) get() T {
	l.once.Do(func() { l.v = l.new() })
	return l.v
}
