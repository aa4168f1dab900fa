package transcript

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/hookkit/harness/lib/dialect"
)

// The hooks that read transcripts find Kimi Code's by a SHA-256 of the work directory; the
// digest is given to lib/dialect from here so that the guards, which read none, do not link
// crypto.
func init() {
	dialect.Sum256Hex = func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return hex.EncodeToString(sum[:])
	}
}
