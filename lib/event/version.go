package event

import (
	"strconv"
	"strings"
)

// Version is a Claude Code version, major.minor.patch.
type Version [3]int

// Client is the Claude Code version this table describes.
var Client = Version{2, 1, 332}

// OnFailureSince is the first Claude Code version whose hook handlers have onFailure ("block":
// a hook that crashes, is killed or cannot start blocks the action instead of letting it run).
var OnFailureSince = Version{2, 1, 330}

// ParseVersion reads the first x.y.z in s, as `claude --version` prints it ("2.1.332 (Claude
// Code)"). No regexp: this package is in every hook, and a compiled pattern costs each start.
func ParseVersion(s string) (Version, bool) {
	for _, word := range strings.FieldsFunc(s, func(r rune) bool { return r != '.' && (r < '0' || r > '9') }) {
		parts := strings.Split(word, ".")
		if len(parts) < 3 {
			continue
		}
		var v Version
		ok := true
		for i := range v {
			n, err := strconv.Atoi(parts[i])
			ok = ok && err == nil
			v[i] = n
		}
		if ok {
			return v, true
		}
	}
	return Version{}, false
}

// Less reports whether v is older than w.
func (v Version) Less(w Version) bool {
	for i := range v {
		if v[i] != w[i] {
			return v[i] < w[i]
		}
	}
	return false
}

// IsZero reports whether v is unset.
func (v Version) IsZero() bool { return v == Version{} }

func (v Version) String() string {
	return strconv.Itoa(v[0]) + "." + strconv.Itoa(v[1]) + "." + strconv.Itoa(v[2])
}

// In reports whether Claude Code version v has the event: false only when the table knows the
// event came later.
func (s Spec) In(v Version) bool { return s.Since.IsZero() || !v.Less(s.Since) }
