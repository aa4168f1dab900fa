package launchd

import (
	"testing"

	"github.com/hookkit/harness/lib/sandbox"
)

// Every test of the package runs in a throwaway home (lib/sandbox).
func TestMain(m *testing.M) { sandbox.Main(m) }
